package io.leaderpacer.simulator.run;

import io.leaderpacer.simulator.scenario.Scenario;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The time series carries the ratio adaptive pacing's canary gave at the bucket's last look while a broker caught up
 * ({@code canary_ratio}), so that the model's canary can be compared with the agent's looks in a run's
 * {@code pacing.csv}: 0 before any broker catches up, after every one has, and under a policy that does not pace.
 *
 * <p>On {@link RestartedFollowerCluster} (broker 0 stopped at 2 minutes for 1 s, 600 MB behind): under adaptive pacing
 * the canary reads the in-sync follower's writes against their steady P99, a ratio of at least about 1 while the
 * broker catches up.
 */
class CanaryRatioSeriesTest {

    private static TimeSeries run(String policy) {
        Scenario s = RestartedFollowerCluster.scenario(", bucketSeconds: 2", "policies: [\"" + policy + "\"]");
        return new ScenarioRunner(ProgressListener.NONE)
                .run(s, s.seed())
                .outcomes()
                .get(1)
                .series();
    }

    @Test
    void adaptivePacing_recordsTheCanaryWhileTheBrokerCatchesUp_andNothingBeforeOrAfter() {
        TimeSeries ts = run("kip-example:leader.imbalance.catch.up.pacing=adaptive");
        double[] ratio = ts.column("canary_ratio");
        double[] lagging = ts.column("lagging_b0");
        assertThat(ratio[ts.rowAt(100)]).as("before the restart").isZero();
        assertThat(ratio[ratio.length - 1]).as("caught up").isZero();
        assertThat(lagging[lagging.length - 1]).isZero();
        int readWhileLagging = 0;
        for (int r = 0; r < ratio.length; r++) {
            if (ratio[r] > 0) {
                assertThat(lagging[r] > 0 || (r > 0 && lagging[r - 1] > 0))
                        .as("a ratio only while catching up (bucket at %s s)", ts.value("time_s", r))
                        .isTrue();
                assertThat(ratio[r]).isGreaterThan(0.5);
                readWhileLagging++;
            }
        }
        assertThat(readWhileLagging).isPositive();
    }

    @Test
    void noPacing_noCanary() {
        assertThat(run("kip-example").column("canary_ratio")).containsOnly(0.0);
    }
}
