package io.leaderpacer.simulator.run;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Scenario 6: the controller fails over twice during a recovery. */
class ControllerFailoverScenarioTest {

    @Test
    void failoversMidRecovery_keepInvariantsAndKip1358sCriteria() {
        ScenarioResult r = ShippedScenarios.leadershipOnly("06-controller-failover.yaml", 4, "kip-example");
        PolicyOutcome wfs = r.outcome("kip-example");
        assertThat(wfs.controller().controllerFailovers()).isEqualTo(2);
        assertThat(r.baseline().controller().controllerFailovers()).isEqualTo(2);
        assertThat(r.acceptance(wfs).pass()).isTrue();
        assertThat(wfs.kip().recovered()).isTrue();

        // The new controller schedules its first run one check interval after it becomes active.
        TimeSeries ts = wfs.series();
        double quietFrom = 75 * 60 + 3;
        for (int i = 0; i < ts.rows(); i++) {
            double t = ShippedScenarios.time(ts, i);
            if (t >= quietFrom && t < quietFrom + 290) {
                assertThat(ts.value("runs", i)).as("t=%s", t).isZero();
            }
        }
    }
}
