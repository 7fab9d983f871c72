package io.leaderpacer.cluster.cpu;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@Tag("cluster")
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class ProcessCpuTimeTest {

    @Test
    void parse_addsUserAndSystemTicks_evenWhenTheCommandNameHoldsSpacesAndParentheses() {
        String stat = "4242 (odd (name) x) R 1 2 3 4 5 6 7 8 9 10 250 50 7 7 20 0 30 0 100 0 0";
        assertThat(ProcessCpuTime.parse(stat, 100)).isEqualTo(Duration.ofSeconds(3));
        assertThat(ProcessCpuTime.parse(stat, 1000)).isEqualTo(Duration.ofMillis(300));
    }

    @Test
    void of_thisJvm_isPositiveAndGrowsWithWork() {
        long pid = ProcessHandle.current().pid();
        Duration before = ProcessCpuTime.of(pid);
        long end = System.nanoTime() + 300_000_000L;
        long x = 0;
        while (System.nanoTime() < end) {
            x += Long.numberOfTrailingZeros(System.nanoTime());
        }
        assertThat(x).isPositive();
        assertThat(before).isPositive();
        assertThat(ProcessCpuTime.of(pid)).isGreaterThan(before);
    }

    @Test
    void of_aProcessThatHasExited_saysItIsNotRunning() throws Exception {
        Process p = new ProcessBuilder("true").start();
        p.waitFor();
        assertThatThrownBy(() -> ProcessCpuTime.of(p.pid()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("not running");
    }
}
