package io.leaderpacer.compat;

import ch.qos.logback.classic.Level;
import io.leaderpacer.agent.CapturedLogs;
import io.leaderpacer.agent.cli.CommandRunner;
import io.leaderpacer.agent.cli.RunCommand;
import io.leaderpacer.agent.kafka.ClusterVersionCheck;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A real Kafka 3.9.1 in ZooKeeper mode: the agent refuses it at start, in one line naming the version and why.
 *
 * <p>Runs when 3.9.1 is among the selected versions (as in CI): Kafka 4 has no ZooKeeper mode.
 */
@Tag("cluster")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class ZooKeeperModeRefusalTest {

    private static final String VERSION = "3.9.1";

    @TempDir
    Path dir;

    @Test
    void zooKeeperModeCluster_pacerRunRefusesAtStart_namingTheVersionAndKraft() throws Exception {
        assumeTrue(KafkaVersions.selected().contains(VERSION), "Kafka " + VERSION + " not selected");
        try (ZooKeeperModeCluster zk = ZooKeeperModeCluster.start(VERSION, dir)) {
            try (Admin admin = zk.admin()) {
                ClusterVersionCheck.ClusterVersion v = new ClusterVersionCheck(admin, Duration.ofSeconds(30)).detect();
                assertThat(v.kraft())
                        .as("a ZooKeeper-mode cluster finalizes no metadata.version")
                        .isFalse();
            }
            Path file = dir.resolve("agent.properties");
            Files.writeString(file, "bootstrap.servers=" + zk.bootstrapServers() + "\npacer.http.enabled=false\n");
            String expected = "the cluster at " + zk.bootstrapServers()
                    + " runs Kafka 3.9 (inter.broker.protocol.version 3.9-IV0) in ZooKeeper mode (no metadata.version"
                    + " is finalized): the agent needs a KRaft cluster (Kafka 3.3 or later); migrate it to KRaft first";
            try (CapturedLogs logs = CapturedLogs.of("io.leaderpacer.agent", Level.INFO)) {
                CommandRunner.Result r = CommandRunner.run(new RunCommand(), "--config", file.toString());

                assertThat(r.exitCode()).isEqualTo(RunCommand.EXIT_REFUSED);
                assertThat(r.err().lines()).containsExactly("Error: not started: " + expected);
                assertThat(logs.events()).anySatisfy(e -> {
                    assertThat(e.getLevel()).isEqualTo(Level.ERROR);
                    assertThat(e.getFormattedMessage()).isEqualTo("refusing to start: " + expected);
                    assertThat(e.getThrowableProxy()).isNull();
                });
            }
            assertThat(zk.brokerLog())
                    .as("the broker really ran in ZooKeeper mode")
                    .contains("Connecting to zookeeper on");
        }
    }
}
