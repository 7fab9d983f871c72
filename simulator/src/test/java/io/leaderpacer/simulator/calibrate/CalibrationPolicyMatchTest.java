package io.leaderpacer.simulator.calibrate;

import io.leaderpacer.engine.config.ConfigKey;
import io.leaderpacer.simulator.scenario.ModelKey;
import io.leaderpacer.simulator.scenario.Scenario;
import io.leaderpacer.simulator.scenario.ScenarioLoader;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
    void pacedPresets_areModelledAsTheLoadTestRanThem() {
        assertThat(Calibration.modelOf(TEMPLATE, "recommended-paced").config().checkIntervalSeconds())
                .isEqualTo(5);
        assertThat(Calibration.modelOf(TEMPLATE, "recommended-deadline")
                        .config()
                        .valueOf(ConfigKey.CATCH_UP_DEADLINE_MS))
                .isEqualTo("45000");
        assertThat(Calibration.modelOf(TEMPLATE, "recommended-deadline")
                        .config()
                        .valueOf(ConfigKey.CATCH_UP_PREFERRED_FIRST))
                .isEqualTo("true");
    }

    @Test
    void roundsAtOneCore_setTheRestartedBrokersQuota() {
        Scenario atOne = Calibration.measuredSetup(TEMPLATE, List.of(round("a", 1.0), round("b", 1.0)));
        assertThat(atOne.model().get(ModelKey.RESTARTED_BROKER_CORES)).isEqualTo(1.0);
        assertThat(atOne.model().get(ModelKey.CALIBRATED_CORES)).isEqualTo(0.5);
    }

    @Test
    void uncappedRounds_leaveTheTemplatesQuota() {
        Scenario uncapped =
                Calibration.measuredSetup(TEMPLATE, List.of(round("a", Double.NaN), round("b", Double.NaN)));
        assertThat(uncapped.model().get(ModelKey.RESTARTED_BROKER_CORES))
                .isEqualTo(TEMPLATE.model().get(ModelKey.RESTARTED_BROKER_CORES));
    }

    @Test
    void roundsAtDifferentQuotas_areRefusedNamingEachRunsQuota() {
        assertThatThrownBy(() -> Calibration.measuredSetup(
                        TEMPLATE, List.of(round("run21", 0.5), round("run30", 1.0), round("run33", Double.NaN))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("run21: cap_cores 0.5")
                .hasMessageContaining("run30: cap_cores 1")
                .hasMessageContaining("run33: uncapped")
                .hasMessageContaining("calibrate the runs of each quota apart");
    }

    private static MeasuredRound round(String run, double capCores) {
        return new MeasuredRound(
                run,
                "immediate",
                1,
                new MeasuredRound.Latency(30, 30, 300, 300, 300, MeasuredRound.Roles.NONE),
                new MeasuredRound.Timeline(20, 15, 30, Double.NaN, 90),
                new MeasuredRound.Reentry(100, 1, 10, 20, 30),
                capCores);
    }

    @Test
    void registeredPolicyWithoutALoadTestCounterpart_hasNoModel() {
        assertThat(TEMPLATE.policy("immediate")).isNotNull();
        assertThat(Calibration.modelOf(TEMPLATE, "kip-example")).isNull();
    }
}
