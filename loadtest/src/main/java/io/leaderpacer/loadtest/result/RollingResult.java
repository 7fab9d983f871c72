package io.leaderpacer.loadtest.result;

import io.leaderpacer.loadtest.load.LatencyBook;
import io.leaderpacer.loadtest.load.LatencyFigures;
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
     * @param sends      latencies (µs) of the sends made during the turn, its stop to its end
     * @param errors     failed sends of the turn, by Kafka error name
     */
    public record Leg(
            int broker,
            long stoppedAt,
            long unfencedAt,
            OptionalLong leadsAt,
            OptionalLong inSyncAt,
            Histogram sends,
            Map<String, Long> errors) {

        public Leg {
            errors = Map.copyOf(errors);
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
