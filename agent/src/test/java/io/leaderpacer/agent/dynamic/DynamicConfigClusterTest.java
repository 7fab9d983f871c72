package io.leaderpacer.agent.dynamic;

import io.leaderpacer.agent.PacerAgent;
import io.leaderpacer.agent.cli.ConfigCommand;
import io.leaderpacer.agent.config.AgentPropertiesFile;
import io.leaderpacer.agent.core.RunRecord;
import io.leaderpacer.embedded.EmbeddedKafkaCluster;
import io.leaderpacer.engine.config.ConfigException;
import io.leaderpacer.engine.config.ElectionAlgorithm;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The dynamic configuration on a real 3-broker KRaft cluster (issue test 5): {@code pacer config} writes the
 * agent's own compacted topic, every agent reads it on its next run, invalid values are refused with nothing
 * written, and an edit of the properties file under the overrides is picked up too. One cluster for the class;
 * each test uses its own config topic.
 */
@Tag("cluster")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class DynamicConfigClusterTest {

    private static final String ALGORITHM = "leader.imbalance.election.algorithm";
    private static final String MAX_PER_RUN = "leader.imbalance.election.max.per.run";
    private static final String THRESHOLD = "leader.imbalance.election.wait.for.sync.threshold.percent";
    private static final String LIST = "preferred.leader.deprioritized.list";

    private static EmbeddedKafkaCluster cluster;
    private static Admin admin;

    @TempDir
    Path dir;

    @BeforeAll
    static void startCluster() {
        cluster = EmbeddedKafkaCluster.builder().brokers(3).build().start();
        admin = cluster.admin();
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void alter_appliesOnTheAgentsNextRun_invalidIsRefusedAndOldValueKept_fileEditPickedUp() throws Exception {
        String topic = "_config-issue5";
        Path file = dir.resolve("agent.properties");
        Files.writeString(file, "bootstrap.servers=" + cluster.bootstrapServers() + "\n" + MAX_PER_RUN + "=100\n");
        AgentPropertiesFile properties = new AgentPropertiesFile(file);
        try (TopicConfigSource source = source(topic);
                PacerAgent agent = PacerAgent.builder(admin)
                        .basePolicy(() -> properties.load().policy())
                        .configSource(source)
                        .build()) {
            RunRecord before = agent.runOnce();
            assertThat(before.config().algorithm()).isEqualTo(ElectionAlgorithm.IMMEDIATE);
            assertThat(before.config().maxPerRun()).isEqualTo(100);

            Result alter =
                    pacerConfig(topic, "--alter", "--add-config", ALGORITHM + "=wait-for-sync," + THRESHOLD + "=5");
            assertThat(alter.status()).isZero();
            assertThat(alter.out())
                    .contains("Set " + ALGORITHM + "=wait-for-sync")
                    .contains("Set " + THRESHOLD + "=5");
            RunRecord next = agent.runOnce();
            assertThat(next.config().algorithm()).isEqualTo(ElectionAlgorithm.WAIT_FOR_SYNC);
            assertThat(next.config().thresholdPercent()).isEqualTo(5.0);
            assertThat(next.config().maxPerRun())
                    .as("the file's value stays under the overrides")
                    .isEqualTo(100);

            Result invalid = pacerConfig(topic, "--alter", "--add-config", MAX_PER_RUN + "=7," + THRESHOLD + "=150");
            assertThat(invalid.status()).isEqualTo(ConfigCommand.EXIT_REFUSED);
            assertThat(invalid.err())
                    .contains(THRESHOLD)
                    .contains("'150'")
                    .contains("between 0 and 100")
                    .contains("Nothing was changed")
                    .doesNotContain("Exception")
                    .doesNotContain("\tat ");
            RunRecord afterInvalid = agent.runOnce();
            assertThat(afterInvalid.config().thresholdPercent())
                    .as("old value kept")
                    .isEqualTo(5.0);
            assertThat(afterInvalid.config().maxPerRun())
                    .as("the valid half was not written either")
                    .isEqualTo(100);

            Files.writeString(file, "bootstrap.servers=" + cluster.bootstrapServers() + "\n" + MAX_PER_RUN + "=40\n");
            assertThat(agent.runOnce().config().maxPerRun())
                    .as("file edit picked up on the next run")
                    .isEqualTo(40);

            Result delete = pacerConfig(topic, "--alter", "--delete-config", ALGORITHM);
            assertThat(delete.status()).isZero();
            assertThat(delete.out()).contains("Deleted " + ALGORITHM);
            RunRecord afterDelete = agent.runOnce();
            assertThat(afterDelete.config().algorithm()).isEqualTo(ElectionAlgorithm.IMMEDIATE);
            assertThat(afterDelete.config().thresholdPercent()).isEqualTo(5.0);
        }
    }

    @Test
    void secondAgentInstance_readsTheSameOverrides() throws Exception {
        String topic = "_config-shared";
        try (TopicConfigSource writer = source(topic);
                TopicConfigSource otherAgent = source(topic)) {
            assertThat(otherAgent.overrides()).isEmpty();
            writer.alter(Map.of(LIST, " 3, 1 ", MAX_PER_RUN, "50"));
            assertThat(otherAgent.overrides()).containsOnly(Map.entry(LIST, "1,3"), Map.entry(MAX_PER_RUN, "50"));
            writer.delete(Set.of(MAX_PER_RUN));
            assertThat(otherAgent.overrides()).containsOnly(Map.entry(LIST, "1,3"));
        }
        try (TopicConfigSource restarted = source(topic)) {
            assertThat(restarted.overrides()).containsOnly(Map.entry(LIST, "1,3"));
        }
    }

    @Test
    void configTopic_isCompactedReplicatedAndCreatedOnFirstWriteOnly() throws Exception {
        String topic = "_config-created";
        try (TopicConfigSource source = source(topic)) {
            assertThat(source.overrides()).isEmpty();
            assertThat(source.describe()).allSatisfy(c -> assertThat(c.origin()).isEqualTo(ConfigOrigin.DEFAULT));
            assertThat(admin.listTopics().names().get())
                    .as("reading does not create it")
                    .doesNotContain(topic);
            source.alter(Map.of(MAX_PER_RUN, "10"));
            assertThat(source.overrides())
                    .as("the same reader sees the topic once created")
                    .containsOnly(Map.entry(MAX_PER_RUN, "10"));
        }
        TopicDescription d =
                admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic);
        assertThat(d.partitions())
                .singleElement()
                .satisfies(p -> assertThat(p.replicas()).hasSize(3));
        ConfigResource r = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        Config c = admin.describeConfigs(List.of(r)).all().get().get(r);
        assertThat(c.get("cleanup.policy").value()).isEqualTo("compact");
        assertThat(c.get("min.insync.replicas").value()).isEqualTo("2");
    }

    @Test
    void invalidAndUnknown_areRefusedWithNothingWritten() throws Exception {
        String topic = "_config-invalid";
        try (TopicConfigSource source = source(topic)) {
            source.alter(Map.of(MAX_PER_RUN, "10"));
            assertThatThrownBy(() -> source.alter(Map.of(ALGORITHM, "wait-for-sync", MAX_PER_RUN, "0")))
                    .isInstanceOf(ConfigException.class)
                    .hasMessageContaining(MAX_PER_RUN)
                    .hasMessageContaining("'0'")
                    .hasMessageContaining("between 1 and 2147483647");
            assertThatThrownBy(() -> source.alter(Map.of("leader.imbalance.election.algoritm", "wait-for-sync")))
                    .isInstanceOf(ConfigException.class)
                    .hasMessageContaining("Unknown configuration 'leader.imbalance.election.algoritm'");
            assertThatThrownBy(() -> source.delete(Set.of("no.such.key")))
                    .isInstanceOf(ConfigException.class)
                    .hasMessageContaining("no.such.key");
            assertThat(source.overrides()).containsOnly(Map.entry(MAX_PER_RUN, "10"));
        }
        Result unknown =
                pacerConfig(topic, "--alter", "--add-config", "leader.imbalance.election.algoritm=wait-for-sync");
        assertThat(unknown.status()).isEqualTo(ConfigCommand.EXIT_REFUSED);
        assertThat(unknown.err())
                .contains("unknown key 'leader.imbalance.election.algoritm'")
                .contains("known keys:");
    }

    @Test
    void describe_showsEveryKeyWithItsSourceAndFlagsAValueWrittenBehindItsBack() throws Exception {
        String topic = "_config-describe";
        assertThat(pacerConfig(topic, "--alter", "--add-config", LIST + "=[2,1]")
                        .status())
                .isZero();
        try (KafkaProducer<String, String> p = new KafkaProducer<>(
                Map.of("bootstrap.servers", cluster.bootstrapServers()),
                new StringSerializer(),
                new StringSerializer())) {
            p.send(new ProducerRecord<>(topic, MAX_PER_RUN, "-5")).get();
            p.send(new ProducerRecord<>(topic, "some.future.key", "x")).get();
        }

        Result describe = pacerConfig(topic, "--describe");

        assertThat(describe.status()).isZero();
        assertThat(describe.out())
                .contains("  " + LIST + "=1,2  (dynamic)")
                .contains("  " + ALGORITHM + "=immediate  (default)")
                .contains("  " + MAX_PER_RUN + "=-5  (dynamic; NOT IN FORCE: Invalid value '-5'")
                .contains("some.future.key=x  (dynamic; NOT IN FORCE: unknown key");
        try (TopicConfigSource source = source(topic)) {
            assertThat(source.overrides())
                    .as("unknown keys are not handed to the agent")
                    .containsOnly(Map.entry(LIST, "1,2"), Map.entry(MAX_PER_RUN, "-5"));
        }
    }

    @Test
    void command_userErrors_areClearWithoutStackTraces() throws Exception {
        Result noAction = pacerConfig("_config-usage", "--add-config", MAX_PER_RUN + "=5");
        assertThat(noAction.status()).isEqualTo(ConfigCommand.EXIT_USAGE);
        assertThat(noAction.err()).contains("--alter").contains("--describe");

        Result alterNothing = pacerConfig("_config-usage", "--alter");
        assertThat(alterNothing.status()).isEqualTo(ConfigCommand.EXIT_USAGE);
        assertThat(alterNothing.err()).contains("--alter needs --add-config and/or --delete-config");

        Result badPair = pacerConfig("_config-usage", "--alter", "--add-config", "wait-for-sync");
        assertThat(badPair.status()).isEqualTo(ConfigCommand.EXIT_USAGE);
        assertThat(badPair.err()).contains("'wait-for-sync' is not key=value");

        Result missingFile = pacerConfig(
                "_config-usage",
                "--describe",
                "--command-config",
                dir.resolve("nope.properties").toString());
        assertThat(missingFile.status()).isEqualTo(ConfigCommand.EXIT_USAGE);
        assertThat(missingFile.err()).contains("nope.properties: no such file");

        List<Result> all = List.of(noAction, alterNothing, badPair, missingFile);
        assertThat(all)
                .allSatisfy(r -> assertThat(r.err()).doesNotContain("\tat ").doesNotContain("Exception"));
        assertThat(admin.listTopics().names().get()).doesNotContain("_config-usage");
    }

    @Test
    void command_unreachableCluster_failsWithinTheTimeoutNamingTheCluster() throws Exception {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0)) {
            closedPort = s.getLocalPort();
        }
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status = new CommandLine(new ConfigCommand())
                .setOut(new PrintWriter(out))
                .setErr(new PrintWriter(err))
                .execute("--bootstrap-server", "127.0.0.1:" + closedPort, "--describe", "--timeout-ms", "1500");

        assertThat(status).isEqualTo(ConfigCommand.EXIT_CLUSTER);
        assertThat(err.toString())
                .contains("127.0.0.1:" + closedPort)
                .contains("1500 ms")
                .doesNotContain("\tat ");
    }

    private record Result(int status, String out, String err) {}

    private static Result pacerConfig(String topic, String... args) {
        List<String> all =
                new ArrayList<>(List.of("--bootstrap-server", cluster.bootstrapServers(), "--config-topic", topic));
        all.addAll(List.of(args));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status = new CommandLine(new ConfigCommand())
                .setOut(new PrintWriter(out))
                .setErr(new PrintWriter(err))
                .execute(all.toArray(String[]::new));
        return new Result(status, out.toString(), err.toString());
    }

    private static TopicConfigSource source(String topic) {
        return new TopicConfigSource(new CompactedTopic(
                admin, Map.of("bootstrap.servers", cluster.bootstrapServers()), topic, Duration.ofSeconds(30)));
    }
}
