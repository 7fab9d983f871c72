package io.leaderpacer.loadtest.testbed;

import io.leaderpacer.cluster.cpu.CpuQuota;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class SaturationTest {

    @Test
    void aPeriodWithoutACgroupQuota_isRefused_namingTheOptionAndWhy() {
        assertThatThrownBy(() -> Saturation.none("--no-saturation").withPeriod(Duration.ofMillis(10)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--cpu-cap-period needs a cgroup cpu quota")
                .hasMessageContaining("--no-saturation");
    }

    @Test
    void aCgroupQuotaOverTenMillisecondPeriods_saysSoInItsMode_andTheDefaultPeriodSaysNothing() {
        Saturation s = Saturation.of(0.5);
        assumeTrue(s.mode().startsWith("cgroup"), () -> "no cgroup CPU quota here: " + s.mode());

        assertThat(s.mode()).doesNotContain("periods");
        assertThat(s.withPeriod(Duration.ofMillis(10)).mode()).endsWith(" over 10.0-ms periods");
        assertThat(s.withPeriod(CpuQuota.DEFAULT_PERIOD).mode()).isEqualTo(s.mode());
        assertThat(s.withPeriod(Duration.ofMillis(10)).describe())
                .contains("CPU quota of 0.50 core")
                .contains("over 10.0-ms periods");
    }

    @Test
    void aPeriodOutsideTheKernelsBounds_isRefused() {
        Saturation s = Saturation.of(0.5);
        assumeTrue(s.mode().startsWith("cgroup"), () -> "no cgroup CPU quota here: " + s.mode());

        assertThatThrownBy(() -> s.withPeriod(Duration.ofSeconds(2)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--cpu-cap-period must be from 1 ms to 1000 ms")
                .hasMessageContaining("not 2000.0 ms");
        assertThatThrownBy(() -> s.withPeriod(Duration.ofMillis(0)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("from 1 ms to 1000 ms");
    }

    @Test
    void aCapUnderOneMillisecondOfCpuAPeriod_isRefusedWhenGiven_notWhenTheBrokerRestarts() {
        Saturation s = Saturation.of(0.05);
        assumeTrue(s.mode().startsWith("cgroup"), () -> "no cgroup CPU quota here: " + s.mode());

        // 0.05 core over 10-ms periods is 0.5 ms of CPU a period: the kernel's minimum is 1 ms.
        assertThatThrownBy(() -> s.withPeriod(Duration.ofMillis(10)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("0.050 core over a period of 10.0 ms is 0.50 ms of CPU a period")
                .hasMessageContaining("--cpu-cap-period");
    }

    @Test
    void aCapUnderOneMillisecondOfCpuA100msPeriod_isRefusedWhenGiven() {
        assumeTrue(Saturation.of(0.5).mode().startsWith("cgroup"), "no cgroup CPU quota here");

        assertThatThrownBy(() -> Saturation.of(0.005))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("0.005 core over a period of 100.0 ms is 0.50 ms of CPU a period")
                .hasMessageContaining("--cpu-cap");
    }
}
