package io.leaderpacer.cli.demo;

import java.util.List;

/**
 * What one restart-and-recovery under one policy produced: the timeline as printed, and the
 * produce latency over the recovery window, measured over every send rather than averaged from
 * the per-line figures.
 *
 * @param policy           the policy's name as the comparison shows it
 * @param settings         the policy's configuration keys, as printed before the run
 * @param restartedBroker  the broker that was restarted
 * @param restartAtMs      when the broker was started again, on the timeline's clock (ms since
 *                         the start of the round)
 * @param timeline         one sample per agent run, in time order
 * @param windowP99Ms      produce P99 from the restart until leadership was back (or the run
 *                         ended), NaN when nothing was sent
 * @param windowSends      sends completed in that window
 */
public record RecoveryRun(
        String policy,
        String settings,
        int restartedBroker,
        long restartAtMs,
        List<TimelineSample> timeline,
        double windowP99Ms,
        long windowSends) {

    public RecoveryRun {
        timeline = List.copyOf(timeline);
    }
}
