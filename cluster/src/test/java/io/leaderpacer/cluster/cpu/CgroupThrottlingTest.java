package io.leaderpacer.cluster.cpu;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CgroupThrottlingTest {

    @Test
    void aVersion1CpuStat_givesItsPeriods_andItsThrottledTimeInNanoseconds() {
        CgroupThrottling t = CgroupThrottling.parse(
                "nr_periods 120\nnr_throttled 7\nthrottled_time 310000000\nnr_bursts 0\nburst_time 0\n");

        assertThat(t).isEqualTo(new CgroupThrottling(120, 7, 310_000_000L));
    }

    @Test
    void aVersion2CpuStat_givesItsThrottledMicroseconds_asNanoseconds_skippingItsUsageLines() {
        CgroupThrottling t = CgroupThrottling.parse("usage_usec 5000000\nuser_usec 4000000\nsystem_usec 1000000\n"
                + "nr_periods 40\nnr_throttled 3\nthrottled_usec 125000\nnr_bursts 0\nburst_usec 0\n");

        assertThat(t).isEqualTo(new CgroupThrottling(40, 3, 125_000_000L));
    }

    @Test
    void aCpuStatWithoutBandwidthCounters_isRefused_namingWhatItRead() {
        assertThatThrownBy(() -> CgroupThrottling.parse("usage_usec 5000000\nuser_usec 4000000\n"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no nr_periods and nr_throttled")
                .hasMessageContaining("usage_usec 5000000");
    }

    @Test
    void twoReadings_giveWhatHappenedBetweenThem() {
        CgroupThrottling earlier = new CgroupThrottling(100, 5, 200_000_000L);
        CgroupThrottling later = new CgroupThrottling(103, 7, 260_000_000L);

        assertThat(later.minus(earlier)).isEqualTo(new CgroupThrottling(3, 2, 60_000_000L));
    }

    @Test
    void aGroupRecreatedBetweenReadings_neverGivesANegativeCount() {
        assertThat(new CgroupThrottling(2, 0, 0).minus(new CgroupThrottling(100, 5, 7)))
                .isEqualTo(new CgroupThrottling(0, 0, 0));
    }

    @Test
    void aGroupsFile_isRead_andAMissingOne_isEmpty(@TempDir Path dir) throws Exception {
        assertThat(CgroupThrottling.read(dir)).isEmpty();

        Files.writeString(dir.resolve("cpu.stat"), "nr_periods 9\nnr_throttled 1\nthrottled_time 42\n");

        assertThat(CgroupThrottling.read(dir)).contains(new CgroupThrottling(9, 1, 42));
    }
}
