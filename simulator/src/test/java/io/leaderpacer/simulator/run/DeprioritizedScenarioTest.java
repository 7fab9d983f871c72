package io.leaderpacer.simulator.run;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Scenario 7: KIP-491, a deprioritized broker loses its leadership and never gets it back. */
class DeprioritizedScenarioTest {

    @Test
    void deprioritizedBroker_drainsAndStaysLeaderless_underEveryPolicy() {
        ScenarioResult r = ShippedScenarios.leadershipOnly("07-deprioritized.yaml", 4, "kip-example", "throttle-only");
        for (PolicyOutcome o : r.outcomes()) {
            TimeSeries ts = o.series();
            assertThat(ts.value("leaders_b5", 0)).as(o.policy().name()).isGreaterThan(900);
            // Drained within one check interval (plus throttled runs) of the change at 20 minutes.
            for (int i = 0; i < ts.rows(); i++) {
                if (ShippedScenarios.time(ts, i) >= 20 * 60 + 300 + 120) {
                    assertThat(ts.value("leaders_b5", i))
                            .as("%s at %s s", o.policy().name(), ShippedScenarios.time(ts, i))
                            .isZero();
                }
            }
            assertThat(o.end().finalLeaders().get(5)).isZero();
            assertThat(o.kip().recovered()).as(o.policy().name()).isTrue();
        }
        assertThat(r.acceptance("kip-example").p99Ok()).isTrue();
    }
}
