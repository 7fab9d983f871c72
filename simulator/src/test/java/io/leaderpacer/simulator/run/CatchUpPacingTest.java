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
        Scenario s = RestartedFollowerCluster.scenario(
                ", bucketSeconds: 2" + model, "policies: [\"kip-example:" + pacingKeys + "\"]");
        return new ScenarioRunner(ProgressListener.NONE)
                .run(s, s.seed())
                .outcomes()
                .get(1);
    }

    private static double[] throttle(PolicyOutcome o) {
        return o.series().column("throttle_mbps_b0");
    }

    @Test
    void staticPacing_throttlesFromTheStopUntilTheBrokerIsBackInEveryIsr() {
        PolicyOutcome o =
                run("leader.imbalance.catch.up.pacing=static,leader.imbalance.catch.up.pacing.rate.bytes=6291456", "");
        TimeSeries ts = o.series();
        double[] rate = throttle(o);
        // Nothing before the restart; 6 MiB/s from the first look that finds the broker stopped; none once it is in
        // sync.
        assertThat(rate[ts.rowAt(100)]).isZero();
        assertThat(rate[ts.rowAt(121)]).isCloseTo(6.291456, within(1e-9));
        assertThat(rate[ts.rows() - 1]).isZero();
        assertThat(ts.value("lagging_b0", ts.rows() - 1)).isZero();
        // 600 MB at 6.29 MB/s: about 95 s (within 10 %: the quota's openings and the first seconds' shares move it a
        // little). Pacing lists only the broker's lagging replicas, as the agent does, so the 1.5 MB/s of in-sync
        // inflow does not count toward its quota; were it counted, 600 MB at 4.79 MB/s would take 125 s.
        int caughtUp = 0;
        while (ts.value("lagging_b0", caughtUp) > 0 || ts.value("time_s", caughtUp) < 125) {
            caughtUp++;
        }
        assertThat(ts.value("time_s", caughtUp) - 123).isBetween(86.0, 105.0);
    }

    @Test
    void progressGuard_raisesARateUnderWhichCatchUpStalls() {
        // The backlog partitions take 3 MB/s of writes, over the 1 MiB/s (with a min rate as low) the broker is paced
        // at: its bytes behind grow while it fetches at the rate, and the guard raises the rate above the inflow.
        Scenario s = RestartedFollowerCluster.scenario(
                3.0,
                ", bucketSeconds: 2",
                "policies: [\"kip-example:leader.imbalance.catch.up.pacing=static,"
                        + "leader.imbalance.catch.up.pacing.rate.bytes=1048576,"
                        + "leader.imbalance.catch.up.pacing.min.rate.bytes=1048576\"]");
        PolicyOutcome o = new ScenarioRunner(ProgressListener.NONE)
                .run(s, s.seed())
                .outcomes()
                .get(1);
        assertThat(Arrays.stream(throttle(o)).max().orElse(0)).isGreaterThan(3.0);
        TimeSeries ts = o.series();
        assertThat(ts.value("lagging_b0", ts.rows() - 1)).isZero();
    }

    @Test
    void adaptivePacing_growsWhileTheCanaryIsWithinTarget_atMostOnceAPerSignalWindow() {
        // With the fetch arithmetic alone a caught write waits half a response of a broker that fetches 970 MB/s:
        // the canary stays within 1.5x, and the rate grows from 20 MiB/s (20.97 MB/s), one change per 6 s at most.
        PolicyOutcome o = run("leader.imbalance.catch.up.pacing=adaptive", "");
        double[] rate = throttle(o);
        assertThat(Arrays.stream(rate).max().orElse(0)).isGreaterThan(26.2);
        assertChangesAtLeastApart(o, rate, 6.0);
    }

    @Test
    void adaptivePacing_cutsTowardTheMinRate_neverUnderIt_whenTheCanaryIsOverTarget() {
        // A caught write waiting 200 times the arithmetic keeps the canary far over 1.5x: cut to 60 %, then again.
        PolicyOutcome o = run("leader.imbalance.catch.up.pacing=adaptive", ", throttledFetchWaitScale: 200");
        double[] rate = throttle(o);
        double least = Arrays.stream(rate).filter(r -> r > 0).min().orElse(0);
        assertThat(least).as("cut twice at least: 20 -> 12 -> 7.2 MiB/s").isLessThanOrEqualTo(7.55);
        assertThat(least).as("never under the min rate, 5 MiB/s").isGreaterThanOrEqualTo(5.24288 - 1e-9);
    }

    /** Between two different rates in a row, at least {@code seconds} of simulated time, less one 2 s bucket. */
    private static void assertChangesAtLeastApart(PolicyOutcome o, double[] rate, double seconds) {
        TimeSeries ts = o.series();
        double lastChange = Double.NEGATIVE_INFINITY;
        for (int i = 1; i < rate.length; i++) {
            if (rate[i] > 0 && rate[i - 1] > 0 && rate[i] != rate[i - 1]) {
                double t = ts.value("time_s", i);
                assertThat(t - lastChange).as("a change at %.1f s", t).isGreaterThanOrEqualTo(seconds - 2.0);
                lastChange = t;
            }
        }
    }
}
