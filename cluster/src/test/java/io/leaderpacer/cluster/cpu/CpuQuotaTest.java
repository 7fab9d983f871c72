package io.leaderpacer.cluster.cpu;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** CPU caps on busy-loop processes started (and stopped) by PID by the test itself. */
@Tag("cluster")
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class CpuQuotaTest {

    /** Every process the test started, killed by PID after each test. */
    private final List<Process> started = new ArrayList<>();

    @AfterEach
    void killStarted() throws Exception {
        for (Process p : started) {
            p.destroyForcibly();
            p.waitFor();
        }
    }

    @Test
    void detect_choosesAModeAndSaysWhy() {
        CpuQuota quota = CpuQuota.detect();
        System.out.println("[figures] CpuQuota.detect(): " + quota);
        assertThat(quota.mode()).isNotNull();
        assertThat(quota.reason()).isNotBlank();
    }

    @Test
    void busyLoopUnderALimitOfAFifthOfACore_usesClearlyLessThanAnUncappedOne_andItsGroupGoesAway() throws Exception {
        CpuQuota quota = CpuQuota.detect();
        assumeTrue(quota.mode().cgroup(), () -> "no cgroup CPU quota here: " + quota);
        Process capped = busyLoop();
        Process free = busyLoop();

        CpuQuota.Limit limit = quota.limit(capped.pid(), 0.2);
        try {
            assertThat(limit.visibleInProcCgroup()).isTrue();
            Path group = limit.group().orElseThrow();
            assertThat(group).isDirectory();
            assertThat(group.getFileName().toString()).startsWith("leader-pacer-" + capped.pid() + "-");

            Duration cappedBefore = ProcessCpuTime.of(capped.pid());
            Duration freeBefore = ProcessCpuTime.of(free.pid());
            long t0 = System.nanoTime();
            Thread.sleep(2000);
            double seconds = (System.nanoTime() - t0) / 1e9;
            double cappedCores =
                    (ProcessCpuTime.of(capped.pid()).minus(cappedBefore).toNanos() / 1e9) / seconds;
            double freeCores = (ProcessCpuTime.of(free.pid()).minus(freeBefore).toNanos() / 1e9) / seconds;
            System.out.printf(
                    "[figures] busy loop capped at 0.2 core used %.2f cores, uncapped %.2f cores%n",
                    cappedCores, freeCores);

            assertThat(cappedCores).isLessThan(0.5);
            assertThat(freeCores).isGreaterThan(cappedCores);
        } finally {
            limit.remove();
        }
        assertThat(limit.group().orElseThrow()).doesNotExist();
        assertThat(limit.visibleInProcCgroup()).isFalse();
        assertThat(capped.isAlive()).isTrue();
        limit.remove(); // idempotent
    }

    @Test
    void tasksetFallback_pinsEveryThreadToOneCore_andRestoresTheAffinity() throws Exception {
        assumeTrue(
                Files.isExecutable(Path.of("/usr/bin/taskset")) || Files.isExecutable(Path.of("/bin/taskset")),
                "no taskset");
        Process p = busyLoop();
        String before = AffinityLimit.currentCpus(p.pid());
        CpuQuota.Limit limit = new CpuQuota(CpuQuota.Mode.TASKSET, "forced by the test", null).limit(p.pid(), 0.5);
        try {
            assertThat(AffinityLimit.currentCpus(p.pid()))
                    .isEqualTo(Integer.toString(AffinityLimit.highestCpu(before)));
            assertThat(limit.visibleInProcCgroup()).isFalse();
            assertThat(limit.group()).isEmpty();
        } finally {
            limit.remove();
        }
        assertThat(AffinityLimit.currentCpus(p.pid())).isEqualTo(before);
    }

    @Test
    void limit_refusesAProcessThatIsNotRunningAndAnImpossibleCap() throws Exception {
        Process p = new ProcessBuilder("true").start();
        p.waitFor();
        CpuQuota quota = CpuQuota.detect();
        assertThatThrownBy(() -> quota.limit(p.pid(), 0.2))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("not running");
        assertThatThrownBy(() -> quota.limit(ProcessHandle.current().pid(), 0))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> quota.limit(ProcessHandle.current().pid(), Double.NaN))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aCapOverATenMillisecondPeriod_writesThatPeriodAndItsShareOfIt_andTheKernelCountsItsPeriods() throws Exception {
        CpuQuota quota = CpuQuota.detect();
        assumeTrue(quota.mode().cgroup(), () -> "no cgroup CPU quota here: " + quota);
        Process capped = busyLoop();

        CpuQuota.Limit limit = quota.limit(capped.pid(), 0.2, Duration.ofMillis(10));
        try {
            Path group = limit.group().orElseThrow();
            if (quota.mode() == CpuQuota.Mode.CGROUP_V1) {
                assertThat(Files.readString(group.resolve("cpu.cfs_period_us")).trim())
                        .isEqualTo("10000");
                assertThat(Files.readString(group.resolve("cpu.cfs_quota_us")).trim())
                        .isEqualTo("2000");
            } else {
                assertThat(Files.readString(group.resolve("cpu.max")).trim()).isEqualTo("2000 10000");
            }
            CgroupThrottling before = limit.throttling().orElseThrow();
            Thread.sleep(500);
            CgroupThrottling half = limit.throttling().orElseThrow().minus(before);
            // A busy loop at a fifth of a core over 10-ms periods: about 50 periods in half a second, nearly all
            // stopped.
            assertThat(half.periods()).isBetween(25L, 75L);
            assertThat(half.throttledPeriods()).isGreaterThan(half.periods() / 2);
        } finally {
            limit.remove();
        }
    }

    @Test
    void limit_refusesAPeriodOutsideTheKernelsBounds_andAQuotaUnderAMillisecondAPeriod() {
        CpuQuota quota = CpuQuota.detect();
        assumeTrue(quota.mode() != CpuQuota.Mode.NONE, () -> "no CPU quota here: " + quota);
        long self = ProcessHandle.current().pid();

        assertThatThrownBy(() -> quota.limit(self, 0.5, Duration.ofMillis(2000)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("from 1 ms to 1000 ms")
                .hasMessageContaining("not 2000.0 ms");
        assertThatThrownBy(() -> quota.limit(self, 0.5, Duration.ofMillis(0)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("from 1 ms to 1000 ms");
        if (quota.mode() != CpuQuota.Mode.TASKSET) {
            assertThatThrownBy(() -> quota.limit(self, 0.05, Duration.ofMillis(10)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("0.050 core over a period of 10.0 ms is 0.50 ms of CPU a period");
        }
    }

    @Test
    void highestCpu_readsTasksetLists() {
        assertThat(AffinityLimit.highestCpu("0")).isZero();
        assertThat(AffinityLimit.highestCpu("0-1")).isEqualTo(1);
        assertThat(AffinityLimit.highestCpu("0-3,6,8-9")).isEqualTo(9);
    }

    private Process busyLoop() throws Exception {
        Process p = new ProcessBuilder("sh", "-c", "while :; do :; done").start();
        started.add(p);
        return p;
    }
}
