package io.leaderpacer.loadtest.result;

import io.leaderpacer.loadtest.load.LatencyBook;
import io.leaderpacer.loadtest.load.LatencyFigures;
import io.leaderpacer.loadtest.observe.PacingSample;
import io.leaderpacer.loadtest.observe.ThreadCpuSampler;
import org.HdrHistogram.Histogram;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * One rolling restart under one policy: every broker restarted in turn, the next once the previous led again and every
 * replica was in sync. Its producers' sends are pooled over the whole restart, from the first stop to the last turn's
 * end, and compared with every send of the steady phase before it (pooled, as KIP-1358's reference).
 *
 * @param policy the policy's name as given
 * @param round  the round's number, from 1, per policy
 * @param steady latencies (µs) of the steady phase's sends
 * @param legs   each broker's turn, in order
 */
public record RollingResult(String policy, int round, Histogram steady, List<Leg> legs) {

    public RollingResult {
        Objects.requireNonNull(policy, "policy");
        Objects.requireNonNull(steady, "steady");
        legs = List.copyOf(legs);
    }

    /**
     * One broker's turn; times in ms from the rolling restart's first stop.
     *
     * @param broker     the broker restarted
     * @param stoppedAt  its stop
     * @param unfencedAt when the controller unfenced it again
     * @param leadsAt    when it led 99 % of its preferred partitions again; empty if the turn ended without it
     * @param inSyncAt   when every replica of every partition was in its ISR again; empty likewise
     * @param endedAt    the turn's end: the next turn's stop, or the round's end for the last turn
     * @param sends      latencies (µs) of the sends made from its stop to its end, so that every send of the restart
     *                   is in exactly one turn
     * @param errors     failed sends of those, by Kafka error name
     * @param trace      what pacing did and the broker's CPU use in the turn
     */
    public record Leg(
            int broker,
            long stoppedAt,
            long unfencedAt,
            OptionalLong leadsAt,
            OptionalLong inSyncAt,
            long endedAt,
            Histogram sends,
            Map<String, Long> errors,
            Trace trace) {

        public Leg {
            errors = Map.copyOf(errors);
            Objects.requireNonNull(trace, "trace");
        }

        /** From unfencing until it led again (empty if it did not). */
        public OptionalLong unfencedToLeadsMs() {
            return leadsAt.isPresent() ? OptionalLong.of(leadsAt.getAsLong() - unfencedAt) : OptionalLong.empty();
        }

        public long timeouts() {
            return errors.getOrDefault(LatencyBook.TIMEOUT, 0L);
        }

        public long failures() {
            return errors.values().stream().mapToLong(Long::longValue).sum();
        }
    }

    /**
     * What a turn's broker went through, as a recovery round's trace ({@code pacing.csv}, {@code threads.csv}) says it;
     * times in ms from the rolling restart's first stop.
     *
     * @param pacing  catch-up pacing's looks at the broker, from its stop to its end
     * @param threads its CPU use by thread group each second, from its registration to the turn's end; empty on a
     *                cluster that is not the test's own (no process to read)
     */
    public record Trace(List<PacingSample> pacing, List<ThreadCpuSampler.Sample> threads) {

        public Trace {
            pacing = List.copyOf(pacing);
            threads = List.copyOf(threads);
        }

        /** No look and no sample (a test's leg, or a cluster that is not the test's own). */
        public static Trace none() {
            return new Trace(List.of(), List.of());
        }
    }

    /** Every send of the restart, from the first stop to the last turn's end. */
    public Histogram sends() {
        Histogram all = steady.copy();
        all.reset();
        legs.forEach(l -> all.add(l.sends()));
        return all;
    }

    public LatencyFigures steadyFigures() {
        return LatencyFigures.of(steady);
    }

    public LatencyFigures rollingFigures() {
        return LatencyFigures.of(sends());
    }

    /** The restart's P99 over the steady phase's. */
    public double p99Ratio() {
        return rollingFigures().p99Ms() / steadyFigures().p99Ms();
    }

    /** From the first stop until the last broker led again: the rolling restart's time (empty if a turn did not). */
    public OptionalLong leadsAgainMs() {
        return legs.stream().allMatch(l -> l.leadsAt().isPresent()) && !legs.isEmpty()
                ? legs.get(legs.size() - 1).leadsAt()
                : OptionalLong.empty();
    }

    public long timeouts() {
        return legs.stream().mapToLong(Leg::timeouts).sum();
    }

    public long failures() {
        return legs.stream().mapToLong(Leg::failures).sum();
    }
}
