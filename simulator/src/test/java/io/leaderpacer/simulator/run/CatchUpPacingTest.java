package io.leaderpacer.simulator.run;

import io.leaderpacer.simulator.scenario.Scenario;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Catch-up pacing on the model: the engine's CatchUpPacer decides every 2 s and its rate becomes the restarted broker's
 * follower throttle, on {@link RestartedFollowerCluster} without a static throttle.
 */
class CatchUpPacingTest {

    private static PolicyOutcome run(String pacingKeys, String model) {
        Scenario s = RestartedFollowerCluster.scenario(", bucketSeconds: 2" + model,
                "policies: [\"kip-example:" + pacingKeys + "\"]");
        return new ScenarioRunner(ProgressListener.NONE).run(s, s.seed()).outcomes().get(1);
    }

    private static double[] throttle(PolicyOutcome o) {
        return o.series().column("throttle_mbps_b0");
    }

    @Test
    void staticPacing_throttlesFromTheStopUntilTheBrokerIsBackInEveryIsr() {
        PolicyOutcome o = run("leader.imbalance.catch.up.pacing=static,leader.imbalance.catch.up.pacing.rate.bytes=6291456", "");
        TimeSeries ts = o.series();
        double[] rate = throttle(o);
        // Nothing before the restart; 6 MiB/s from the first look that finds the broker stopped; none once it is in sync.
        assertThat(rate[ts.rowAt(100)]).isZero();
        assertThat(rate[ts.rowAt(121)]).isCloseTo(6.291456, within(1e-9));
        assertThat(rate[ts.rows() - 1]).isZero();
        assertThat(ts.value("lagging_b0", ts.rows() - 1)).isZero();
        // 600 MB at 6.29 MB/s less the 1.5 MB/s of in-sync inflow that counts toward the quota: about 125 s, a little
        // less since each opening of the quota lets a whole round of responses (about 21 MB) through.
        int caughtUp = 0;
        while (ts.value("lagging_b0", caughtUp) > 0 || ts.value("time_s", caughtUp) < 125) {
            caughtUp++;
        }
        assertThat(ts.value("time_s", caughtUp) - 123).isBetween(100.0, 130.0);
    }

    @Test
    void progressGuard_raisesARateUnderWhichCatchUpStalls() {
        // 1 MiB/s (with a min rate as low) is under the 1.5 MB/s in-sync inflow: bytes behind stop falling, and the
        // guard raises the rate.
        PolicyOutcome o = run("leader.imbalance.catch.up.pacing=static,leader.imbalance.catch.up.pacing.rate.bytes=1048576,"
                + "leader.imbalance.catch.up.pacing.min.rate.bytes=1048576", "");
        assertThat(Arrays.stream(throttle(o)).max().orElse(0)).isGreaterThan(1.5);
        TimeSeries ts = o.series();
        assertThat(ts.value("lagging_b0", ts.rows() - 1)).isZero();
    }

    @Test
    void adaptivePacing_growsWhileTheCanaryIsWithinTarget() {
        // With the fetch arithmetic alone a caught write waits half a response of a broker that fetches 970 MB/s:
        // the canary stays within 1.5x, and the rate grows by the min rate (5 MiB/s) per look from 20 MiB/s.
        PolicyOutcome o = run("leader.imbalance.catch.up.pacing=adaptive", "");
        assertThat(Arrays.stream(throttle(o)).max().orElse(0)).isGreaterThan(30);
    }

    @Test
    void adaptivePacing_cutsToTheMinRate_whenTheCanaryIsOverTarget() {
        // A caught write waiting 200 times the arithmetic keeps the canary far over 1.5x: halved until the min rate.
        PolicyOutcome o = run("leader.imbalance.catch.up.pacing=adaptive", ", throttledFetchWaitScale: 200");
        double[] rate = throttle(o);
        assertThat(Arrays.stream(rate).filter(r -> r > 0).min().orElse(0)).isCloseTo(5.24288, within(1e-9));
    }
}
