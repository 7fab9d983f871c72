package io.leaderpacer.cli.demo;

import io.leaderpacer.engine.config.ElectionAlgorithm;
import io.leaderpacer.engine.config.PacerConfig;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DemoSettingsTest {

    @Test
    void pacedPolicy_showsGatingThenBatches() {
        PacerConfig paced = DemoSettings.standard().waitForSync();

        assertThat(paced.algorithm()).isEqualTo(ElectionAlgorithm.WAIT_FOR_SYNC);
        assertThat(paced.thresholdPercent()).isEqualTo(10.0);
        assertThat(paced.maxPerRun()).isEqualTo(20);
        assertThat(paced.throttleIntervalMs()).isEqualTo(2_000);
        assertThat(paced.checkIntervalSeconds()).isEqualTo(1);
    }

    @Test
    void baseline_isKafkasBehaviourCheckedAsOften() {
        PacerConfig immediate = DemoSettings.standard().immediate();

        assertThat(immediate.algorithm()).isEqualTo(ElectionAlgorithm.IMMEDIATE);
        assertThat(immediate.maxPerRun()).isEqualTo(1000);
        assertThat(immediate.throttleIntervalMs()).isZero();
        assertThat(immediate.checkIntervalSeconds()).isEqualTo(1);
    }

    @Test
    void quick_differsOnlyInTheAmountToCatchUp() {
        DemoSettings standard = DemoSettings.standard();
        DemoSettings quick = DemoSettings.quick();

        assertThat(quick.backlogBytes()).isLessThan(standard.backlogBytes());
        assertThat(quick.withBacklog(standard.backlogBytes(), standard.recoveryTimeout())).isEqualTo(standard);
    }

    @Test
    void policyLine_listsTheAlgorithmAndEveryKeyOffItsDefault() {
        assertThat(DemoSettings.policyLine(DemoSettings.immediateBaseline())).isEqualTo(
                "leader.imbalance.check.interval.seconds=1 leader.imbalance.election.algorithm=immediate");
    }

    @Test
    void describe_printsTheSettingsUsed() {
        assertThat(String.join("\n", DemoSettings.standard().describe()))
                .contains("300 partitions", "100 preferred per broker", "broker 1: 48 MiB", "throttle 2 MiB/s",
                        "threshold.percent=10");
    }

    @Test
    void restartedBrokerOutsideTheCluster_isRefusedWithTheRange() {
        DemoSettings s = DemoSettings.standard();

        assertThatThrownBy(() -> new DemoSettings(3, 300, 3, "t", 512, 200, 1, 1, Duration.ofSeconds(1),
                s.waitForSync(), s.immediate())).hasMessageContaining("0..2").hasMessageContaining("got 3");
    }
}
