package io.leaderpacer.simulator.run;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Scenario 5: an ISR flap half-way through the ramp, against both readings of the gate's ratio. */
class IsrFlapScenarioTest {

    @Test
    void flapBelowThreshold_defaultKeepsRamping_literalRegatesAndRecoversLater() {
        // Full size: the flap is timed to fall inside the 6,000-partition ramp.
        ScenarioResult r = ShippedScenarios.leadershipOnly("05-isr-flap.yaml", 1, "kip-example", "kip-example-literal");
        PolicyOutcome all = r.outcome("kip-example");
        PolicyOutcome literal = r.outcome("kip-example-literal");

        assertThat(regatedAfterRamping(all.series()))
                .as("default denominator re-gates")
                .isFalse();
        assertThat(regatedAfterRamping(literal.series()))
                .as("literal denominator re-gates")
                .isTrue();
        assertThat(literal.kip().recoveryMs()).isGreaterThan(all.kip().recoveryMs() + 300_000);
        assertThat(r.acceptance(all).pass()).isTrue();
    }

    /** Whether the broker was gated again after it had started to lead. */
    private static boolean regatedAfterRamping(TimeSeries ts) {
        boolean ramping = false;
        for (int i = 0; i < ts.rows(); i++) {
            if (ShippedScenarios.time(ts, i) > 3600 && ts.value("leaders_b0", i) > 0) {
                ramping = true;
            }
            if (ramping && ts.value("gate_b0", i) == 1) {
                return true;
            }
        }
        return false;
    }
}
