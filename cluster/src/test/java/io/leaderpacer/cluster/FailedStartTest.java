package io.leaderpacer.cluster;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * Starts that must fail: the exception names the node and the cause, and nothing is left behind (no process of
 * the cluster alive, no directory).
 */
@Tag("cluster")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class FailedStartTest {

    @Test
    void invalidConfigValue_formatFailsNamingTheNodeAndTheKey_andLeavesNothing() throws Exception {
        Path dir = freshDirectory();
        ProcessKafkaCluster cluster = ProcessKafkaCluster.builder()
                .brokers(1)
                .brokerConfig("num.network.threads", "abc")
                .baseDirectory(dir)
                .build();

        ProcessClusterException e = catchThrowableOfType(ProcessClusterException.class, cluster::start);

        assertThat(e).isNotNull();
        assertThat(e.getMessage())
                .containsPattern("(controller 3000|broker 0) failed to format its storage")
                .contains("num.network.threads");
        assertNothingLeft(cluster, dir);
    }

    @Test
    void brokerExitingDuringStartUp_failsNamingTheBrokerWithItsLog_andStopsTheOthers() throws Exception {
        Path dir = freshDirectory();
        // Read by brokers only (the controller runs no replica manager), and only when the broker starts.
        ProcessKafkaCluster cluster = ProcessKafkaCluster.builder()
                .brokers(2)
                .brokerConfig("replica.selector.class", "io.leaderpacer.cluster.NoSuchReplicaSelector")
                .baseDirectory(dir)
                .build();

        ProcessClusterException e = catchThrowableOfType(ProcessClusterException.class, cluster::start);

        assertThat(e).isNotNull();
        assertThat(e.getMessage())
                .containsPattern("broker [01] exited with status 1 during start-up")
                .contains("NoSuchReplicaSelector");
        assertThat(cluster.startedPids()).hasSize(3 + 3); // the storage tool and the server of each node
        assertNothingLeft(cluster, dir);
    }

    @Test
    void startTimeoutTooShort_failsNamingANode_andStopsEveryProcess() throws Exception {
        Path dir = freshDirectory();
        ProcessKafkaCluster cluster = ProcessKafkaCluster.builder()
                .brokers(1)
                .startTimeout(Duration.ofSeconds(2))
                .baseDirectory(dir)
                .build();

        ProcessClusterException e = catchThrowableOfType(ProcessClusterException.class, cluster::start);

        assertThat(e).isNotNull();
        assertThat(e.getMessage())
                .containsPattern(
                        "(controller 3000|broker 0) (did not finish formatting|was not registered|was registered but still fenced)");
        assertNothingLeft(cluster, dir);
    }

    private static Path freshDirectory() throws Exception {
        Path parent = Files.isWritable(Path.of("/dev/shm"))
                ? Path.of("/dev/shm")
                : Path.of(System.getProperty("java.io.tmpdir"));
        Path dir = Files.createTempDirectory(parent, "leader-pacer-cluster-test-");
        Files.delete(dir); // the cluster creates it
        return dir;
    }

    private static void assertNothingLeft(ProcessKafkaCluster cluster, Path dir) {
        List<Long> pids = cluster.startedPids();
        assertThat(pids).isNotEmpty();
        assertThat(pids)
                .allSatisfy(pid -> assertThat(ProcessHandle.of(pid)
                                .map(ProcessHandle::isAlive)
                                .orElse(false))
                        .as("process %d is alive", pid)
                        .isFalse());
        assertThat(dir).doesNotExist();
    }
}
