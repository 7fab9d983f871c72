package io.leaderpacer.simulator.run;

import io.leaderpacer.simulator.scenario.Scenario;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * A restarted broker's CPU cost of catching up whatever the rate ({@code catchUpBaseCores}): a share of its CPU while
 * it has replicas to catch up, none once it has caught up.
 *
 * <p>Worked by hand on {@link RestartedFollowerCluster}, broker 0 gated out of leadership so that it only follows. Its
 * work is the 1.5 MB/s of in-sync inflow on a 1,000 MB/s capacity (u = 0.0015). At a 1 MB/s throttle the in-sync bytes
 * take the whole quota and the six backlog replicas stall for good: broker 0 is catching up to the end, so a base
 * cost of 0.1 core adds 0.1 / 0.5 = 0.2 at the calibrated 0.5 core (u = 0.2015) and 0.1 / 0.25 = 0.4 at a quarter core,
 * where the bytes weigh twice as much too (u = 0.003 + 0.4 = 0.403). At 3 MB/s it catches up and the cost ends
 * (u = 0.0015 at 0.5 core).
 */
class CatchUpBaseCoresTest {

    private static double lastUtilisation(double throttleMBps, String cores) {
        Scenario s = RestartedFollowerCluster.scenario(
                ", calibratedCores: 0.5, catchUpBaseCores: 0.1" + cores,
                RestartedFollowerCluster.gatedOnly(throttleMBps));
        TimeSeries ts = new ScenarioRunner(ProgressListener.NONE)
                .run(s, s.seed())
                .outcome("gated")
                .series();
        assertThat(ts.value("lagging_b0", ts.rows() - 1))
                .as("broker 0 still catching up")
                .isEqualTo(throttleMBps < 1.5 ? 6 : 0);
        return ts.value("util_b0", ts.rows() - 1);
    }

    @Test
    void stillCatchingUp_atTheCalibratedCores_paysTheBaseShare() {
        assertThat(lastUtilisation(1, "")).isCloseTo(0.2015, within(0.001));
    }

    @Test
    void stillCatchingUp_atAQuarterCore_paysTwiceTheShare() {
        assertThat(lastUtilisation(1, ", restartedBrokerCores: 0.25")).isCloseTo(0.403, within(0.001));
    }

    @Test
    void caughtUp_paysNoBaseCost() {
        assertThat(lastUtilisation(3, "")).isCloseTo(0.0015, within(0.001));
    }
}
