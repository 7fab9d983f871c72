package io.leaderpacer.simulator.run;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Scenario 3: two brokers recovering at once are ramped in parallel by round-robin. */
class RollingRestartScenarioTest {

    @Test
    void twoRecoveringBrokers_rampInParallel() {
        ScenarioResult r = ShippedScenarios.leadershipOnly("03-rolling-restart.yaml", 4, "kip-example");
        PolicyOutcome wfs = r.outcome("kip-example");
        TimeSeries ts = wfs.series();
        int rampRows = 0;
        for (int i = 0; i < ts.rows(); i++) {
            double a = ts.value("leaders_b0", i);
            double b = ts.value("leaders_b3", i);
            if (ShippedScenarios.time(ts, i) > 3600 && a > 0 && a < 1000 && b < 1000) {
                rampRows++;
                // Each capped run of 200 gives each broker 100 +- 1: they never drift more than a run apart.
                assertThat(Math.abs(a - b)).as("t=%s", ts.value("time_s", i)).isLessThanOrEqualTo(202);
            }
        }
        assertThat(rampRows).isGreaterThan(3);
        assertThat(r.acceptance(wfs).pass()).isTrue();
        assertThat(r.baseline().kip().p99Ratio()).isGreaterThan(3.0);
    }
}
