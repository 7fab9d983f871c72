package io.leaderpacer.loadtest.probe;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Hand-worked: the stepped cases, which show what Kafka's quota window does with a rate that moves. */
class ProbeCasesTest {

    private static final ProbeSettings SETTINGS = new ProbeSettings(1, 12, 400L << 20, 10L << 20, 0.5);

    @Test
    void steppedCases_stepUnderAThrottle_andNoOtherCaseSteps() {
        Map<String, ThrottleCase> all = ProbeCases.all(SETTINGS);

        assertThat(all.get("follower-broker-all-up-stepped").stepMs()).isEqualTo(ProbeCases.STEP_MS);
        assertThat(all.get("follower-broker-all-up-stepped").throttle()).isPresent();
        assertThat(all.get("leader-broker-entries-down-stepped").stepMs()).isEqualTo(ProbeCases.STEP_MS);
        assertThat(all.values().stream().filter(c -> c.stepMs() > 0))
                .extracting(ThrottleCase::name)
                .containsExactly("follower-broker-all-up-stepped", "leader-broker-entries-down-stepped");
    }

    @Test
    void aStepWithoutAThrottle_isRefused_namingTheCase() {
        assertThatThrownBy(() ->
                        new ThrottleCase("odd", Optional.empty(), Optional.empty(), ThrottleCase.Removal.NONE, 1_000))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("case odd");
    }

    @Test
    void brokerSettings_parseAsKeyValuePairs() {
        ThrottleProbeCommand command = new ThrottleProbeCommand();
        new CommandLine(command)
                .parseArgs("--broker-setting", "replication.quota.window.num=2", "--broker-setting", "a.b=c");

        assertThat(command.brokerSettings)
                .containsExactly(Map.entry("replication.quota.window.num", "2"), Map.entry("a.b", "c"));
    }
}
