package io.leaderpacer.agent;

import ch.qos.logback.classic.Level;
import io.leaderpacer.agent.cli.CommandRunner;
import io.leaderpacer.agent.cli.RunCommand;
import io.leaderpacer.agent.core.AgentState;
import io.leaderpacer.agent.core.RunRecord;
import io.leaderpacer.agent.kafka.AutoRebalanceEnabledException;
import io.leaderpacer.embedded.EmbeddedKafkaCluster;
import io.leaderpacer.engine.config.PacerConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** Issue test 6: with Kafka's own automatic leader rebalancing on, the agent refuses to start. */
@Tag("cluster")
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class AutoRebalanceSafetyTest {

    private static EmbeddedKafkaCluster cluster;

    @TempDir
    Path dir;

    @BeforeAll
    static void startCluster() {
        cluster = EmbeddedKafkaCluster.builder()
                .brokers(1)
                .autoLeaderRebalance(true)
                .build()
                .start();
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void autoRebalanceOn_agentRefusesToStart_andSaysHowToTurnItOff() throws Exception {
        try (CapturedLogs logs = CapturedLogs.of("io.leaderpacer", Level.INFO);
                PacerAgent agent = PacerAgent.builder(cluster.admin())
                        .clusterLabel(cluster.bootstrapServers())
                        .build()) {
            agent.start();
            assertThatThrownBy(() -> agent.termination().get(60, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class)
                    .cause()
                    .isInstanceOf(AutoRebalanceEnabledException.class)
                    .hasMessageContaining("auto.leader.rebalance.enable=true on broker(s) [0]")
                    .hasMessageContaining(
                            "auto.leader.rebalance.enable=false   in server.properties of every controller and broker")
                    .hasMessageContaining("kafka-configs.sh --bootstrap-server " + cluster.bootstrapServers())
                    .hasMessageContaining("--allow-auto-rebalance");
            assertThat(agent.state()).isEqualTo(AgentState.REFUSED);
            assertThat(agent.history()).as("no run, so no election").isEmpty();
            assertThat(logs.events()).anySatisfy(e -> {
                assertThat(e.getLevel()).isEqualTo(Level.ERROR);
                assertThat(e.getFormattedMessage()).contains("refusing to start");
                assertThat(e.getThrowableProxy()).isNull();
            });
        }
    }

    @Test
    void runCommand_exitsWithTheRefusalStatus() throws Exception {
        Path file = dir.resolve("agent.properties");
        Files.writeString(file, "bootstrap.servers=" + cluster.bootstrapServers() + "\npacer.http.enabled=false\n");
        CommandRunner.Result result = CommandRunner.run(new RunCommand(), "--config", file.toString());
        assertThat(result.exitCode()).isEqualTo(1);
        assertThat(result.err())
                .contains("Error: not started: auto.leader.rebalance.enable=true on broker(s) [0]")
                .doesNotContain("\tat ");
    }

    @Test
    void allowAutoRebalance_runsAnywayWithAWarning() {
        try (CapturedLogs logs = CapturedLogs.of("io.leaderpacer", Level.INFO);
                PacerAgent agent = PacerAgent.builder(cluster.admin())
                        .allowAutoRebalance(true)
                        .basePolicy(PacerConfig.fromMap(Map.of("leader.imbalance.check.interval.seconds", "1")))
                        .build()) {
            agent.start();
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> agent.lastRun().map(RunRecord::succeeded).orElse(false));
            assertThat(agent.state()).isEqualTo(AgentState.RUNNING);
            assertThat(logs.messagesOf("StartupCheck"))
                    .anySatisfy(m -> assertThat(m).contains("running anyway"));
        }
    }

    @Test
    void kafkaRefusesToChangeTheSettingAtRunTime_soTheMessagePointsToServerProperties() {
        ConfigResource allBrokers = new ConfigResource(ConfigResource.Type.BROKER, "");
        assertThatThrownBy(() -> cluster.admin()
                        .incrementalAlterConfigs(Map.of(
                                allBrokers,
                                List.of(new AlterConfigOp(
                                        new ConfigEntry("auto.leader.rebalance.enable", "false"),
                                        AlterConfigOp.OpType.SET))))
                        .all()
                        .get())
                .cause()
                .isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("Cannot update these configs dynamically");
    }
}
