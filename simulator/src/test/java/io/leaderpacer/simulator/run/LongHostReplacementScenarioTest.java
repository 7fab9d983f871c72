package io.leaderpacer.simulator.run;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Scenario 8: 40 minutes down with a 30-minute max-wait; which clock protects the broker. */
class LongHostReplacementScenarioTest {

    @Test
    void whileActiveClock_stillGates_wallClockEscapesBeforeTheBrokerIsBack() {
        ScenarioResult r = ShippedScenarios.leadershipOnly(
                "08-long-host-replacement.yaml", 4, "kip-example", "kip-example-wall-clock");
        PolicyOutcome active = r.outcome("kip-example");
        PolicyOutcome wall = r.outcome("kip-example-wall-clock");
        double unfencedS = active.kip().firstUnfenceMs() / 1000.0;

        assertThat(phaseAt(active.series(), unfencedS + 600))
                .as("gated 10 min after unfencing")
                .isEqualTo(1.0);
        assertThat(phaseAt(wall.series(), unfencedS))
                .as("released by max-wait before unfencing")
                .isEqualTo(2.0);
        assertThat(r.acceptance(active).p99Ok()).isTrue();
        assertThat(r.acceptance(wall).p99Ok()).isFalse();
        assertThat(wall.kip().p99Ratio()).isGreaterThan(3.0);
    }

    private static double phaseAt(TimeSeries ts, double seconds) {
        return ts.value("gate_b0", ts.rowAt(seconds));
    }
}
