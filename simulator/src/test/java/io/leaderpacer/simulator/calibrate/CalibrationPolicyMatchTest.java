package io.leaderpacer.simulator.calibrate;

import io.leaderpacer.simulator.scenario.Scenario;
import io.leaderpacer.simulator.scenario.ScenarioLoader;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** Which of the template's policies models a measured one. */
class CalibrationPolicyMatchTest {

    private static final Scenario TEMPLATE =
            new ScenarioLoader().load(Path.of("..", "scenarios", "calibration", "loadtest-template.yaml"));

    @Test
    void registeredPolicy_isModelledAsTheLoadTestRanIt_notByTheScenariosOwn() {
        assertThat(Calibration.modelOf(TEMPLATE, "immediate").name()).isEqualTo("loadtest-immediate");
        assertThat(Calibration.modelOf(TEMPLATE, "immediate").config().checkIntervalSeconds())
                .isEqualTo(5);
        assertThat(Calibration.modelOf(TEMPLATE, "kip-example-scaled").name()).isEqualTo("loadtest-kip-example-scaled");
    }

    @Test
    void registeredPolicyWithoutALoadTestCounterpart_hasNoModel() {
        assertThat(TEMPLATE.policy("immediate")).isNotNull();
        assertThat(Calibration.modelOf(TEMPLATE, "kip-example")).isNull();
    }
}
