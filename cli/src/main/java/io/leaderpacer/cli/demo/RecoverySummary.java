package io.leaderpacer.cli.demo;

import java.util.OptionalLong;

/**
 * The handful of figures that tell two policies apart after the same broker restart.
 *
 * @param policy                   the policy's name
 * @param firstLeadershipMs        when the first leadership went back to the restarted broker,
 *                                 in ms since it was started again; empty if none did
 * @param regainMs                 when it led all its preferred partitions again, in ms since
 *                                 it was started again; empty if it never did within the run
 * @param maxGainedPerRun          most elections to it in one agent run
 * @param runsWithElections        agent runs that gave it any leadership
 * @param electionsWhileOverThreshold elections to it made while more than {@code thresholdPercent}
 *                                 of its preferred partitions were out of its ISR
 * @param thresholdPercent         the threshold that count was measured against
 * @param windowP99Ms              produce P99 over the recovery window (every send)
 * @param worstIntervalP99Ms       highest per-line produce P99 in the window
 */
public record RecoverySummary(
        String policy,
        OptionalLong firstLeadershipMs,
        OptionalLong regainMs,
        int maxGainedPerRun,
        int runsWithElections,
        int electionsWhileOverThreshold,
        double thresholdPercent,
        double windowP99Ms,
        double worstIntervalP99Ms) {

    /**
     * Reads the figures off a recorded run.
     *
     * @param run              the recorded run
     * @param thresholdPercent the out-of-sync threshold to judge returned leadership against
     *                         (the wait-for-sync threshold, for both policies)
     */
    public static RecoverySummary of(RecoveryRun run, double thresholdPercent) {
        long first = -1;
        long regain = -1;
        int maxGained = 0;
        int runs = 0;
        int overThreshold = 0;
        double worst = Double.NaN;
        for (TimelineSample s : run.timeline()) {
            long sinceRestart = s.atMs() - run.restartAtMs();
            if (sinceRestart < 0) {
                continue;
            }
            if (regain < 0) {
                worst = maxIgnoringNaN(worst, s.produceP99Ms());
            }
            int gained = s.electionsToRestarted();
            if (gained > 0) {
                runs++;
                maxGained = Math.max(maxGained, gained);
                if (first < 0) {
                    first = sinceRestart;
                }
                if (s.outOfSyncPercent() > thresholdPercent) {
                    overThreshold += gained;
                }
            }
            if (regain < 0 && s.fullyRecovered()) {
                regain = sinceRestart;
            }
        }
        return new RecoverySummary(run.policy(),
                first < 0 ? OptionalLong.empty() : OptionalLong.of(first),
                regain < 0 ? OptionalLong.empty() : OptionalLong.of(regain),
                maxGained, runs, overThreshold, thresholdPercent, run.windowP99Ms(), worst);
    }

    private static double maxIgnoringNaN(double a, double b) {
        if (Double.isNaN(a)) {
            return b;
        }
        if (Double.isNaN(b)) {
            return a;
        }
        return Math.max(a, b);
    }
}
