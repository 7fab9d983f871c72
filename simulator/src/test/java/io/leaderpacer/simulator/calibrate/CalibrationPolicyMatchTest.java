package io.leaderpacer.simulator.calibrate;

import io.leaderpacer.engine.config.ConfigKey;
import io.leaderpacer.simulator.scenario.ModelKey;
import io.leaderpacer.simulator.scenario.Scenario;
import io.leaderpacer.simulator.scenario.ScenarioLoader;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

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
        Scenario atOne = QuotaSetup.measuredSetup(TEMPLATE, List.of(round("a", 1.0), round("b", 1.0)));
        assertThat(atOne.model().get(ModelKey.RESTARTED_BROKER_CORES)).isEqualTo(1.0);
        assertThat(atOne.model().get(ModelKey.CALIBRATED_CORES)).isEqualTo(0.5);
    }

    @Test
    void uncappedRounds_leaveTheTemplatesQuota() {
        Scenario uncapped = QuotaSetup.measuredSetup(TEMPLATE, List.of(round("a", Double.NaN), round("b", Double.NaN)));
        assertThat(uncapped.model().get(ModelKey.RESTARTED_BROKER_CORES))
                .isEqualTo(TEMPLATE.model().get(ModelKey.RESTARTED_BROKER_CORES));
    }

    @Test
    void roundsAtDifferentQuotas_areModelledEachAtItsOwnQuotaAndDowntime() {
        Calibration c = Calibration.of(
                TEMPLATE,
                List.of(
                        round("run33", Double.NaN, 40),
                        round("run30", 1.0, 30),
                        round("run21", 0.5, 20),
                        round("run31", 1.0, 34)));
        assertThat(c.setups()).extracting(QuotaSetup::quota).containsExactly("0.5 core", "1 core", "uncapped");
        assertThat(c.setups())
                .extracting(q -> q.scenario().model().get(ModelKey.RESTARTED_BROKER_CORES))
                .containsExactly(0.5, 1.0, TEMPLATE.model().get(ModelKey.RESTARTED_BROKER_CORES));
        // The 1-core setup's downtime is the median of its own two rounds', 30 and 34 s.
        assertThat(c.setups())
                .extracting(q -> q.scenario().restarts().get(0).downMs())
                .containsExactly(20_000L, 32_000L, 40_000L);
        assertThat(c.setups()).extracting(QuotaSetup::seeds).containsExactly(1, 2, 1);
        assertThat(c.targets())
                .extracting(Target::policy)
                .contains("immediate @ 0.5 core", "immediate @ 1 core", "immediate @ uncapped")
                .doesNotContain("immediate");
    }

    @Test
    void roundsAtOneQuota_keepTheMeasuredPolicysName() {
        Calibration c = Calibration.of(TEMPLATE, List.of(round("a", 1.0, 20), round("b", 1.0, 22)));
        assertThat(c.setups()).extracting(QuotaSetup::quota).containsExactly("1 core");
        assertThat(c.targets()).extracting(Target::policy).containsOnly("immediate");
    }

    private static MeasuredRound round(String run, double capCores) {
        return round(run, capCores, 20);
    }

    private static MeasuredRound round(String run, double capCores, double downSeconds) {
        return new MeasuredRound(
                run,
                "immediate",
                1,
                new MeasuredRound.Latency(30, 30, 300, 300, 300, MeasuredRound.Roles.NONE),
                new MeasuredRound.Timeline(downSeconds, 15, 30, Double.NaN, 90),
                new MeasuredRound.Reentry(100, 1, 10, 20, 30),
                MeasuredRound.Cpu.capped(capCores));
    }

    @Test
    void registeredPolicyWithoutALoadTestCounterpart_hasNoModel() {
        assertThat(TEMPLATE.policy("immediate")).isNotNull();
        assertThat(Calibration.modelOf(TEMPLATE, "kip-example")).isNull();
    }
}
