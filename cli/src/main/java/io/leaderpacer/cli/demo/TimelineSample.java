package io.leaderpacer.cli.demo;

import io.leaderpacer.engine.GatePhase;

/**
 * One line of the demo's timeline: what one agent run saw and did, and what producers felt since
 * the previous line. Recorded so that the comparison, the report and the end-to-end test all
 * read the same numbers that were printed.
 *
 * @param atMs                 time of the run since the start of the round (the broker is
 *                             stopped right after)
 * @param restartedActive      the restarted broker is registered, unfenced and not shutting down
 * @param outOfSync            its preferred partitions where it is not in the ISR
 * @param preferredPartitions  all its preferred partitions (the gate's denominator)
 * @param phase                its gate verdict in this run
 * @param leaders              partitions it led when the run read the cluster
 * @param elections            elections the run made, to any broker
 * @param electionsToRestarted of them, those that made the restarted broker leader (successful
 *                             ones, when the agent reports results)
 * @param produceP99Ms         produce latency P99 over the interval since the previous line, or NaN
 *                             when no send completed in it
 * @param produced             sends completed in that interval
 */
public record TimelineSample(
        long atMs,
        boolean restartedActive,
        int outOfSync,
        int preferredPartitions,
        GatePhase phase,
        int leaders,
        int elections,
        int electionsToRestarted,
        double produceP99Ms,
        long produced) {

    /** The out-of-sync ratio in percent over all preferred partitions (0 with none). */
    public double outOfSyncPercent() {
        return preferredPartitions == 0 ? 0.0 : 100.0 * outOfSync / preferredPartitions;
    }

    /** Partitions the restarted broker leads once this run's elections are made. */
    public int leadersAfterRun() {
        return leaders + electionsToRestarted;
    }

    /**
     * Whether the restarted broker leads all of its preferred partitions once this run's
     * elections are made: the run that finishes the recovery, not the one after it.
     */
    public boolean fullyRecovered() {
        return restartedActive && preferredPartitions > 0 && leadersAfterRun() >= preferredPartitions;
    }
}
