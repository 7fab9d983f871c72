package io.leaderpacer.loadtest.result;

import io.leaderpacer.cluster.cpu.CgroupThrottling;
import io.leaderpacer.loadtest.load.LatencyBook;
import io.leaderpacer.loadtest.load.LatencyFigures;
import io.leaderpacer.loadtest.load.Phase;
import io.leaderpacer.loadtest.load.SecondSample;
import io.leaderpacer.loadtest.load.View;
import io.leaderpacer.loadtest.observe.AgentRunSample;
import io.leaderpacer.loadtest.observe.PacingSample;
import io.leaderpacer.loadtest.observe.PartitionSample;
import io.leaderpacer.loadtest.observe.ThreadCpuSampler;
import io.leaderpacer.loadtest.steady.SteadyWindow;
import org.HdrHistogram.Histogram;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * Everything one round measured: one broker restart under one policy. Times are milliseconds since the round
 * started. The figures come in groups, so that a round is built and read by name: its latency, its moments, how it
 * recovered, how the broker was saturated, and the traces it recorded.
 *
 * @param policy     the policy's name
 * @param round      1-based number of this policy's round
 * @param latency    what the producers saw
 * @param moments    when the round's steps happened
 * @param recovery   how leadership came back
 * @param saturation how the broker was saturated and how busy it was
 * @param trace      what the round sampled while it measured
 */
public record RoundResult(
        String policy,
        int round,
        Latency latency,
        Moments moments,
        Recovery recovery,
        SaturationFigures saturation,
        Trace trace) {

    /**
     * What the producers saw.
     *
     * @param steady        latency of the sends made in the steady phase, per view (the round's own reference)
     * @param window        latency of the sends made in the window after unfencing, per view
     * @param steadyWindows the steady phase in windows of 5 s, per view: what the run's pooled reference is made of
     * @param errors        failed sends made from the stop to the end of the round, per view, by Kafka error name
     * @param seconds       per-second latency summaries of the round
     * @param buckets       the latency distributions of the steady phase and the window, per view
     * @param steadySends   every send of the steady phase (all views), to 3 significant digits: what KIP-1358's
     *                      reference pools over the run's rounds
     * @param kipWindow     latency of the sends made in the ten minutes from unfencing, per view (KIP-1358's window;
     *                      empty when the round did not measure it)
     */
    public record Latency(
            Map<View, LatencyFigures> steady,
            Map<View, LatencyFigures> window,
            List<SteadyWindow> steadyWindows,
            Map<View, Map<String, Long>> errors,
            List<SecondSample> seconds,
            List<LatencyBucket> buckets,
            Histogram steadySends,
            Map<View, LatencyFigures> kipWindow) {}

    /**
     * When the round's steps happened.
     *
     * @param stoppedAtMs   when the broker was stopped
     * @param restartedAtMs when it was started again
     * @param unfencedAtMs  when the controller unfenced it: the window starts here
     * @param windowMs      the window's length
     * @param endedAtMs     when the round stopped measuring
     * @param kipWindowMs   how long KIP-1358's window lasted (ten minutes from unfencing, to a look); 0 when the round
     *                      did not measure it, -1 when it could not (its strict window outlasted ten minutes)
     */
    public record Moments(
            long stoppedAtMs, long restartedAtMs, long unfencedAtMs, long windowMs, long endedAtMs, long kipWindowMs) {

        /** A round that did not measure KIP-1358's window. */
        public Moments(long stoppedAtMs, long restartedAtMs, long unfencedAtMs, long windowMs, long endedAtMs) {
            this(stoppedAtMs, restartedAtMs, unfencedAtMs, windowMs, endedAtMs, 0);
        }
    }

    /**
     * How leadership came back.
     *
     * @param recoveredAtMs    when the broker first led at least 99 % of its preferred partitions again, if it did
     * @param gateReleasedAtMs when the engine first left the broker ungated after unfencing ({@code wait-for-sync}
     *                         only)
     * @param timeline         ISR re-entries of its preferred partitions, after unfencing
     */
    public record Recovery(OptionalLong recoveredAtMs, OptionalLong gateReleasedAtMs, Timeline timeline) {}

    /**
     * What the round sampled while it measured.
     *
     * @param agentRuns the agent's runs from the stop on
     * @param samples   the partition samples of the round
     * @param cpu       the restarted broker's CPU use over time, in cores (empty when its process is not known)
     * @param pacing    catch-up pacing's looks at the restarted broker from the stop on (empty when it did not pace)
     * @param threads   the restarted broker's CPU use by thread group each second, from its registration to a minute
     *                  after its unfencing (empty when its process is not known)
     */
    public record Trace(
            List<AgentRunSample> agentRuns,
            List<PartitionSample> samples,
            List<CpuSample> cpu,
            List<PacingSample> pacing,
            List<ThreadCpuSampler.Sample> threads) {

        /** A trace without thread samples. */
        public Trace(
                List<AgentRunSample> agentRuns,
                List<PartitionSample> samples,
                List<CpuSample> cpu,
                List<PacingSample> pacing) {
            this(agentRuns, samples, cpu, pacing, List.of());
        }
    }

    /** Sends that timed out ({@code REQUEST_TIMED_OUT}: the request or the delivery time-out), all views. */
    public long timeouts() {
        return latency.errors().getOrDefault(View.ALL, Map.of()).getOrDefault(LatencyBook.TIMEOUT, 0L);
    }

    /** Failed sends of every kind, all views. */
    public long failures() {
        return latency.errors().getOrDefault(View.ALL, Map.of()).values().stream()
                .mapToLong(Long::longValue)
                .sum();
    }

    /** Window P99 over the run's pooled steady reference, for one view ({@code NaN} when either is missing). */
    public double p99Ratio(View view, SteadyReference reference) {
        LatencyFigures w = latency.window().get(view);
        return w == null ? Double.NaN : w.p99Ms() / reference.p99Ms(view);
    }

    /** The follower rates catch-up pacing set for the restarted broker at its looks, MiB/s (none when it did not pace). */
    public Spread pacingRatesMiBps() {
        return Spread.of(trace.pacing().stream()
                .filter(p -> p.rateBytes() >= 0)
                .mapToDouble(p -> p.rateBytes() / 1048576.0)
                .toArray());
    }

    /** Whether catch-up pacing throttled the restarted broker in this round. */
    public boolean paced() {
        return trace.pacing().stream().anyMatch(p -> p.rateBytes() >= 0);
    }

    /** Recovery time (unfenced → leads ≥ 99 % of its preferred partitions), if it recovered. */
    public OptionalLong recoveryMs() {
        OptionalLong at = recovery.recoveredAtMs();
        return at.isPresent() ? OptionalLong.of(at.getAsLong() - moments.unfencedAtMs()) : OptionalLong.empty();
    }

    /** The runs that moved leadership to the restarted broker: the election batches it got back. */
    public List<AgentRunSample> batchesToBroker() {
        return trace.agentRuns().stream().filter(r -> r.electedToBroker() > 0).toList();
    }

    /**
     * One bucket of a latency distribution: sends of a view made in a phase whose latency was at most
     * {@code upToMs} and above the previous bucket's bound.
     */
    public record LatencyBucket(Phase phase, View view, double upToMs, long count) {}

    /**
     * One CPU reading: the broker's CPU use, in cores, averaged over the interval that ends at {@code atMs}, and, under
     * a cgroup quota, how often the kernel stopped it at its quota in that interval (a fetch burst can use a period's
     * quota and stop every thread, the canary's writes included, while the average stays far under the cap).
     */
    public record CpuSample(long atMs, double cores, Optional<CgroupThrottling> throttling) {

        /** A sample of a broker whose cap is no cgroup (or that has no cap). */
        public CpuSample(long atMs, double cores) {
            this(atMs, cores, Optional.empty());
        }
    }

    /**
     * How the restarted broker was saturated.
     *
     * @param mode             what ran: e.g. "cgroup v1 CPU quota", "taskset", "none"
     * @param capCores         the quota in cores ({@code NaN} without one)
     * @param visibleInCgroup  whether the quota's group was seen in the process's {@code /proc/PID/cgroup}
     * @param catchUpBusyCores the broker's average CPU use from unfencing to its last ISR re-entry, measured from
     *                         {@code /proc/PID/stat}
     * @param steadyCores      its average CPU use in the steady phase, uncapped: what the steady load needs
     * @param afterCatchUpCores its average CPU use from its last ISR re-entry to the end of the round, still capped:
     *                         near the cap, the steady load alone saturates it and latency measures a queue
     */
    public record SaturationFigures(
            String mode,
            double capCores,
            boolean visibleInCgroup,
            OptionalDouble catchUpBusyCores,
            OptionalDouble steadyCores,
            OptionalDouble afterCatchUpCores) {}
}
