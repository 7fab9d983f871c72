package io.leaderpacer.agent.dynamic;

import ch.qos.logback.classic.Level;
import io.leaderpacer.agent.CapturedLogs;
import io.leaderpacer.agent.PacerAgent;
import io.leaderpacer.agent.core.RunRecord;
import io.leaderpacer.agent.reorder.DeprioritizedOrderStep;
import io.leaderpacer.agent.reorder.OrderStateStore;
import io.leaderpacer.embedded.EmbeddedKafkaCluster;
import io.leaderpacer.engine.config.PacerConfig;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The state topic's safety on a real 3-broker KRaft cluster: an absent topic is created with the safe settings
 * (read back from the cluster), a pre-created unsafe topic is refused with every problem named and nothing written,
 * an agent whose state topic is unsafe reorders nothing, and client properties cannot weaken the producer.
 * One cluster for the class; each test uses its own topics.
 */
@Tag("cluster")
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class StateTopicSafetyClusterTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private static EmbeddedKafkaCluster cluster;
    private static Admin admin;

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
    void absentTopic_isCreatedWithOnePartitionThreeReplicasCompactedMinInsyncTwoNoUnclean_andThenPasses()
            throws Exception {
        String topic = "_state-created";
        StateTopicSafety.ensureSafe(admin, topic, TIMEOUT);

        TopicDescription d = await().atMost(TIMEOUT)
                .ignoreExceptions()
                .until(
                        () -> admin.describeTopics(List.of(topic))
                                .allTopicNames()
                                .get()
                                .get(topic),
                        t -> t != null);
        assertThat(d.partitions())
                .singleElement()
                .satisfies(p -> assertThat(p.replicas()).hasSize(3));
        Map<String, String> configs = configs(topic);
        assertThat(configs)
                .containsEntry("cleanup.policy", "compact")
                .containsEntry("min.insync.replicas", "2")
                .containsEntry("unclean.leader.election.enable", "false");

        StateTopicSafety.ensureSafe(admin, topic, TIMEOUT); // the topic it created is safe
        assertThat(configs(topic)).as("nothing changed by the second check").isEqualTo(configs);
    }

    /**
     * Pacing writes its first record when a broker goes down: the topic created then must still have three replicas
     * and tolerate one broker down. Counting only the live brokers made it two replicas with min.insync.replicas 2,
     * which refused the agent's writes during every later restart and made every rolling restart unsafe.
     */
    @Test
    void absentTopic_createdWhileABrokerIsDown_stillHasThreeReplicas() throws Exception {
        String topic = "_state-created-while-down";
        int down = cluster.brokerIds().get(2);
        cluster.stopBroker(down);
        try {
            StateTopicSafety.ensureSafe(admin, topic, TIMEOUT);
        } finally {
            cluster.startBroker(down);
        }

        TopicDescription d = await().atMost(TIMEOUT)
                .ignoreExceptions()
                .until(
                        () -> admin.describeTopics(List.of(topic))
                                .allTopicNames()
                                .get()
                                .get(topic),
                        Objects::nonNull);
        assertThat(d.partitions())
                .singleElement()
                .satisfies(p -> assertThat(p.replicas())
                        .as("replicas, of 3 registered brokers, one of them down")
                        .hasSize(3));
        assertThat(configs(topic)).containsEntry("min.insync.replicas", "2");
    }

    @Test
    void preCreatedUnsafeTopic_isRefusedNamingEveryProblem_andLeftAsItWas() throws Exception {
        String topic = "_state-unsafe";
        createUnsafe(topic);
        Map<String, String> before = configs(topic);

        assertThatThrownBy(() -> StateTopicSafety.ensureSafe(admin, topic, TIMEOUT))
                .isInstanceOfSatisfying(UnsafeTopicException.class, e -> {
                    assertThat(e.topic()).isEqualTo(topic);
                    assertThat(e.problems())
                            .extracting(TopicSafetyProblem::setting)
                            .containsExactly(
                                    "partitions",
                                    "replication factor",
                                    "cleanup.policy",
                                    "min.insync.replicas",
                                    "unclean.leader.election.enable");
                    assertThat(e.getMessage())
                            .contains("5 problems:")
                            .contains("partitions is 2, must be 1")
                            .contains("replication factor is 1, must be at least 3 (min(3, 3 registered brokers))")
                            .contains("cleanup.policy is 'delete', must be 'compact'")
                            .contains("min.insync.replicas is 1, must be between 2 and 3")
                            .contains("unclean.leader.election.enable is true, must be false")
                            .contains("kafka-configs.sh --bootstrap-server ")
                            .contains("--entity-name " + topic)
                            .contains("kafka-topics.sh --bootstrap-server ")
                            .contains("kafka-reassign-partitions.sh");
                });
        assertThat(configs(topic)).isEqualTo(before);
        assertThat(endOffsets(topic))
                .as("nothing written")
                .allSatisfy(o -> assertThat(o).isZero());
    }

    @Test
    void oneUnsafeSettingOnAnOtherwiseSafeTopic_isTheOnlyProblemNamed() throws Exception {
        String topic = "_state-min-isr-1";
        admin.createTopics(List.of(new NewTopic(topic, 1, (short) 3)
                        .configs(Map.of("cleanup.policy", "compact", "min.insync.replicas", "1"))))
                .all()
                .get();

        assertThatThrownBy(() -> StateTopicSafety.ensureSafe(admin, topic, TIMEOUT))
                .isInstanceOfSatisfying(
                        UnsafeTopicException.class,
                        e -> assertThat(e.problems())
                                .singleElement()
                                .satisfies(p -> assertThat(p.fix())
                                        .endsWith("--entity-name " + topic
                                                + " --alter --add-config min.insync.replicas=2")));
    }

    @Test
    void unsafeStateTopic_agentWritesNothingReordersNothingAndSaysWhy() throws Exception {
        String stateTopic = "_state-unsafe-agent";
        createUnsafe(stateTopic);
        String topic = "led-by-2";
        admin.createTopics(List.of(new NewTopic(topic, Map.of(0, List.of(2, 0, 1), 1, List.of(2, 1, 0)))))
                .all()
                .get();
        await().atMost(TIMEOUT).ignoreExceptions().until(() -> replicas(topic).size() == 2);
        Map<Integer, List<Integer>> original = replicas(topic);

        Map<String, String> client = Map.of("bootstrap.servers", cluster.bootstrapServers());
        try (OrderStateStore store = new OrderStateStore(new CompactedTopic(admin, client, stateTopic, TIMEOUT));
                PacerAgent agent = PacerAgent.builder(admin)
                        .basePolicy(PacerConfig.defaults().with("preferred.leader.deprioritized.list", "2"))
                        .replicaOrderStep(
                                DeprioritizedOrderStep.builder(admin, store).build())
                        .build()) {
            // The run may ask a broker that does not know the new topic yet: it then has nothing to reorder.
            RunRecord run = await().atMost(TIMEOUT)
                    .until(agent::runOnce, r -> r.failure().isPresent());

            assertThat(run.failure())
                    .hasValueSatisfying(why -> assertThat(why)
                            .doesNotContain("UnsafeTopicException")
                            .contains("State topic " + stateTopic + " is not safe")
                            .contains("cleanup.policy is 'delete'"));
            assertThat(run.results()).as("no election").isEmpty();
        }
        assertThat(replicas(topic))
                .as("no reorder without a safe write-ahead record")
                .isEqualTo(original);
        assertThat(endOffsets(stateTopic)).allSatisfy(o -> assertThat(o).isZero());
    }

    @Test
    void weakProducerSettingsInClientProperties_cannotWeakenTheStateWriter() throws Exception {
        String topic = "_state-acks";
        Map<String, String> weak = new HashMap<>();
        weak.put("bootstrap.servers", cluster.bootstrapServers());
        weak.put("acks", "1");
        weak.put("enable.idempotence", "false");
        weak.put("client.id", "weak-writer");
        try (CapturedLogs logs = CapturedLogs.of("org.apache.kafka.common.config.AbstractConfig", Level.INFO);
                CompactedTopic state = new CompactedTopic(admin, weak, topic, TIMEOUT)) {
            state.write(Map.of("k", "v"));
            assertThat(state.read()).containsEntry("k", "v");

            // the configuration the real producer was built with, as Kafka logs it when creating a client
            String producerConfig = logs.messagesOf("AbstractConfig").stream()
                    .filter(m -> m.startsWith("ProducerConfig values") && m.contains("client.id = weak-writer"))
                    .findFirst()
                    .orElseThrow();
            assertThat(producerConfig)
                    .contains("acks = -1")
                    .contains("enable.idempotence = true")
                    .doesNotContain("acks = 1\n");
        }
    }

    @Test
    void compactedTopicWrite_onAnUnsafeTopic_failsWithTheProblemsAndWritesNothing() throws Exception {
        String topic = "_state-unsafe-write";
        createUnsafe(topic);
        try (CompactedTopic state =
                new CompactedTopic(admin, Map.of("bootstrap.servers", cluster.bootstrapServers()), topic, TIMEOUT)) {
            assertThatThrownBy(() -> state.write(Map.of("orders", "{}")))
                    .isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(UnsafeTopicException.class)
                    .hasMessageContaining("5 problems");
        }
        assertThat(endOffsets(topic)).allSatisfy(o -> assertThat(o).isZero());
    }

    /** Two partitions, one replica, delete policy, min.insync.replicas 1, unclean election on. */
    private static void createUnsafe(String topic) throws Exception {
        admin.createTopics(List.of(new NewTopic(topic, 2, (short) 1)
                        .configs(Map.of(
                                "cleanup.policy",
                                "delete",
                                "min.insync.replicas",
                                "1",
                                "unclean.leader.election.enable",
                                "true"))))
                .all()
                .get();
        await().atMost(TIMEOUT).ignoreExceptions().until(() -> replicas(topic).size() == 2);
    }

    /**
     * The topic's configs, once the broker asked knows the topic: a new topic reaches each broker's metadata at its own
     * moment, and a broker that has not learned of it yet answers that it does not exist.
     */
    private static Map<String, String> configs(String topic) {
        ConfigResource r = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        Config c = await().atMost(TIMEOUT)
                .ignoreExceptionsMatching(e -> e.getCause() instanceof UnknownTopicOrPartitionException)
                .until(() -> admin.describeConfigs(List.of(r)).all().get().get(r), Objects::nonNull);
        Map<String, String> out = new HashMap<>();
        c.entries().forEach(e -> out.put(e.name(), e.value()));
        return out;
    }

    private static Map<Integer, List<Integer>> replicas(String topic) throws Exception {
        Map<Integer, List<Integer>> out = new TreeMap<>();
        for (TopicPartitionInfo p : admin.describeTopics(List.of(topic))
                .allTopicNames()
                .get()
                .get(topic)
                .partitions()) {
            out.put(p.partition(), p.replicas().stream().map(Node::id).toList());
        }
        return out;
    }

    private static List<Long> endOffsets(String topic) throws Exception {
        Map<TopicPartition, OffsetSpec> request = new HashMap<>();
        for (int p : replicas(topic).keySet()) {
            request.put(new TopicPartition(topic, p), OffsetSpec.latest());
        }
        return admin.listOffsets(request).all().get().values().stream()
                .map(ListOffsetsResult.ListOffsetsResultInfo::offset)
                .toList();
    }
}
