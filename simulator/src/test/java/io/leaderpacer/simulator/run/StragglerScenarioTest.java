package io.leaderpacer.simulator.run;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import static org.assertj.core.api.Assertions.assertThat;

/** Scenario 4: three partitions never catch up; threshold and max-wait decide what happens. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class StragglerScenarioTest {

    private ScenarioResult result;

    @BeforeAll
    void run() {
        result = ShippedScenarios.leadershipOnly(
                "04-straggler.yaml", 4, "kip-example", "kip-example-strict", "kip-example-strict-no-escape");
    }

    @Test
    void thresholdOfFivePercent_ignoresTheStragglers() {
        KipAcceptance v = result.acceptance("kip-example");
        assertThat(v.pass()).isTrue();
        assertThat(result.outcome("kip-example").series().column("gate_b0")).doesNotContain(2.0);
    }

    @Test
    void strictGate_holdsTheBrokerUntilMaxWaitThenReleasesIt() {
        PolicyOutcome strict = result.outcome("kip-example-strict");
        TimeSeries ts = strict.series();
        int escapedAt = -1;
        for (int i = 0; i < ts.rows(); i++) {
            if (ts.value("gate_b0", i) == 2) {
                escapedAt = i;
                break;
            }
        }
        assertThat(escapedAt).as("released by max-wait").isPositive();
        double unfencedS = strict.kip().firstUnfenceMs() / 1000.0;
        // The clock runs from the first run that found it active and over the threshold: <= one
        // check interval after unfencing, then 30 minutes.
        assertThat(ShippedScenarios.time(ts, escapedAt) - unfencedS).isBetween(1800.0, 1800.0 + 300 + 300);
        assertThat(ts.value("leaders_b0", escapedAt - 1)).isZero();
        assertThat(strict.kip().recovered()).isTrue();
        assertThat(strict.kip().recoveryMs()).isGreaterThan(1_800_000);
        assertThat(result.acceptance(strict).p99Ok()).isTrue();
    }

    @Test
    void strictGateWithoutEscape_neverLetsTheBrokerLeadAgain() {
        PolicyOutcome never = result.outcome("kip-example-strict-no-escape");
        assertThat(never.kip().recovered()).isFalse();
        assertThat(never.end().finalLeaders().get(0)).isZero();
        assertThat(never.controller().elections()).isZero();
        assertThat(result.acceptance(never).pass()).isFalse();
    }
}
