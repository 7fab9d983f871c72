package io.leaderpacer.loadtest;

import io.leaderpacer.loadtest.steady.WarmUpSettings;
import io.leaderpacer.loadtest.testbed.ExternalTarget;
import io.leaderpacer.loadtest.testbed.LocalTarget;
import io.leaderpacer.loadtest.testbed.Saturation;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A load test that cannot start its cluster or restart its broker fails with a clear error and leaves nothing behind. */
@Tag("cluster")
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class LoadTestFailureTest {

    @TempDir
    Path out;

    private LoadTestSettings settings() {
        return LoadTestSettings.builder()
                .brokerHeap("256m")
                .saturation(false, 0.3)
                .partitions(6, 6)
                .load(50, 100)
                .backlog(1L << 20, 1.0, 1)
                .warmup(new WarmUpSettings(Duration.ofSeconds(1), Duration.ofSeconds(1)))
                .steady(Duration.ofSeconds(5))
                .window(Duration.ofSeconds(5))
                .roundLimit(Duration.ofSeconds(10))
                .rounds(1)
                .policies(List.of(NamedPolicy.parse("immediate", 5, 2)))
                .checkIntervalSeconds(2)
                .out(out)
                .build();
    }

    private static long liveChildren() {
        return ProcessHandle.current()
                .descendants()
                .filter(ProcessHandle::isAlive)
                .count();
    }

    @Test
    void clusterThatCannotStart_failsNamingTheNode_andLeavesNoProcess() {
        long before = liveChildren();
        LoadTest test = new LoadTest(
                settings(),
                () -> LocalTarget.start(
                        3, "256m", Map.of("auto.leader.rebalance.enable", "false", "num.io.threads", "not-a-number")),
                Saturation.none("test"),
                line -> {});

        assertThatThrownBy(() -> test.run("a cluster with a bad broker setting"))
                .hasMessageMatching("(?s)(broker \\d+|controller \\d+) .*")
                .hasMessageContaining("num.io.threads");
        assertThat(liveChildren()).isEqualTo(before);
    }

    @Test
    void brokerThatCannotBeRestarted_failsNamingTheCommand_andTheClusterIsLeftAsItWas() throws Exception {
        try (LocalTarget cluster = LocalTarget.start(3, "256m", Map.of("auto.leader.rebalance.enable", "false"))) {
            long before = liveChildren();
            Map<String, Object> client = cluster.clientProperties();
            LoadTest test = new LoadTest(
                    settings(),
                    () -> ExternalTarget.connect(client, "echo cannot {action} broker {broker}; exit 3"),
                    Saturation.none("test"),
                    line -> {});

            assertThatThrownBy(() -> test.run("an existing cluster"))
                    .hasMessageContaining("exited with status 3")
                    .hasMessageContaining("cannot stop broker 1");
            assertThat(liveChildren()).isEqualTo(before);
            assertThat(cluster.pids()).hasSize(4);
        }
    }
}
