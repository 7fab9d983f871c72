package io.leaderpacer.agent.reorder;

import io.leaderpacer.agent.PacerAgent;
import io.leaderpacer.agent.cli.ConfigCommand;
import io.leaderpacer.agent.config.SecretRedactor;
import io.leaderpacer.agent.core.ElectionResult;
import io.leaderpacer.agent.core.RunRecord;
import io.leaderpacer.agent.dynamic.CompactedTopic;
import io.leaderpacer.agent.dynamic.TopicConfigSource;
import io.leaderpacer.agent.kafka.ClusterReader;
import io.leaderpacer.agent.kafka.LeaderElector;
import io.leaderpacer.embedded.EmbeddedKafkaCluster;
import io.leaderpacer.engine.BalancerMemory;
import io.leaderpacer.engine.ElectionDecision;
import io.leaderpacer.engine.PreferredLeaderBalancer;
import io.leaderpacer.engine.cluster.ClusterSnapshot;
import io.leaderpacer.engine.cluster.PartitionId;
import io.leaderpacer.engine.cluster.PartitionState;
import io.leaderpacer.engine.config.PacerConfig;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewPartitionReassignment;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The KIP-491 list on a real 3-broker KRaft cluster (issue test 4): reorder-only reassignments with a write-ahead
 * record, paced leadership drain, exact restoration by a restarted agent, and a replica set changed by someone else
 * left alone. A crash at each step of a reorder or a restore is {@link CrashPointClusterTest}. One cluster for the class; each test has its own
 * topic and its own state topic and decides on a snapshot of its own topic only, so the tests do not see each
 * other's partitions.
 */
@Tag("cluster")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class DeprioritizedOrderStepClusterTest {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final int DEPRIORITIZED = 2;

    private static EmbeddedKafkaCluster cluster;
    private static Admin admin;
    private static ClusterReader reader;
    private static LeaderElector elector;

    @BeforeAll
    static void startCluster() {
        cluster = EmbeddedKafkaCluster.builder().brokers(3).build().start();
        admin = cluster.admin();
        reader = new ClusterReader(admin, Duration.ofSeconds(30), 100);
        elector = new LeaderElector(admin, Duration.ofSeconds(30), 1000, SecretRedactor.none());
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void deprioritizedBroker_drainsInPacedAgentRuns_andRestartedAgentRestoresEveryOriginalOrder() throws Exception {
        String topic = "drain";
        Map<Integer, List<Integer>> original = createTopic(
                topic,
                List.of(2, 0, 1),
                List.of(0, 1, 2),
                List.of(2, 1, 0),
                List.of(1, 2, 0),
                List.of(2, 0, 1),
                List.of(0, 2, 1),
                List.of(2, 1, 0),
                List.of(1, 0, 2));
        PacerConfig paced = PacerConfig.defaults().with("leader.imbalance.election.max.per.run", "2");
        assertThat(leadersOn(topic, DEPRIORITIZED)).isEqualTo(4);
        assertThat(pacerConfig("--alter", "--add-config", "preferred.leader.deprioritized.list=" + DEPRIORITIZED))
                .isZero();

        // The agent loop on the whole cluster: every partition with broker 2 in front is reordered in the first
        // run, then leadership leaves broker 2 at most 2 elections per run.
        List<Integer> leadersOnDeprioritized = new ArrayList<>();
        try (AgentInstance agent = new AgentInstance(paced)) {
            for (int run = 0; run < 40; run++) {
                RunRecord r = agent.agent.runOnce();
                assertThat(r.failure()).isEmpty();
                assertThat(r.config().deprioritizedBrokers()).containsExactly(DEPRIORITIZED);
                leadersOnDeprioritized.add(r.leadersByBroker().get(DEPRIORITIZED));
                assertThat(r.results())
                        .hasSizeLessThanOrEqualTo(2)
                        .allSatisfy(e -> assertThat(e.targetLeader()).isNotEqualTo(DEPRIORITIZED));
                if (r.results().isEmpty() && r.leadersByBroker().get(DEPRIORITIZED) == 0) {
                    break;
                }
                awaitLeadersSettled(r);
            }
            assertThat(agent.step.lastReport().reordered())
                    .as("all reordered in the first run")
                    .isEmpty();
        }
        assertThat(leadersOnDeprioritized.get(0)).isGreaterThanOrEqualTo(4);
        assertThat(leadersOnDeprioritized.get(leadersOnDeprioritized.size() - 1))
                .isZero();
        for (int i = 1; i < leadersOnDeprioritized.size(); i++) {
            int drained = leadersOnDeprioritized.get(i - 1) - leadersOnDeprioritized.get(i);
            assertThat(drained)
                    .as("leaders drained from broker 2 in run %d of %s", i, leadersOnDeprioritized)
                    .isBetween(0, 2);
        }
        Map<Integer, List<Integer>> reordered = awaitOrders(topic, expectedDeprioritized(original));
        assertThat(reordered.values())
                .allSatisfy(r -> assertThat(r.get(r.size() - 1)).isEqualTo(DEPRIORITIZED));
        assertThat(records(STATE_TOPIC))
                .filteredOn(r -> r.partition().topic().equals(topic))
                .hasSize(6)
                .allSatisfy(r -> {
                    assertThat(r.original())
                            .isEqualTo(original.get(r.partition().partition()));
                    assertThat(r.status()).isEqualTo(ReorderStatus.REORDERED);
                });

        // The agent restarts (new instances, empty memory), then the broker leaves the list.
        assertThat(pacerConfig("--alter", "--delete-config", "preferred.leader.deprioritized.list"))
                .isZero();
        try (AgentInstance restarted = new AgentInstance(paced)) {
            RunRecord first = restarted.agent.runOnce();
            assertThat(first.failure()).isEmpty();
            assertThat(first.config().deprioritizedBrokers()).isEmpty();
            assertThat(restarted.step.lastReport().restored())
                    .filteredOn(p -> p.topic().equals(topic))
                    .hasSize(6);
            assertThat(awaitOrders(topic, original)).isEqualTo(original);
            assertThat(records(STATE_TOPIC)).isEmpty();
            awaitLeadersSettled(first);
            for (int run = 0; run < 40 && leadersOn(topic, DEPRIORITIZED) < 4; run++) {
                RunRecord r = restarted.agent.runOnce();
                assertThat(r.results()).hasSizeLessThanOrEqualTo(2);
                awaitLeadersSettled(r);
            }
        }
        assertThat(leadersOn(topic, DEPRIORITIZED))
                .as("leadership back on the restored preferred replicas")
                .isEqualTo(4);
    }

    @Test
    void replicaSetChangedBySomeoneElse_isLeftAloneReportedAndNotRestored() throws Exception {
        String topic = "moved";
        Map<Integer, List<Integer>> original = createTopic(topic, List.of(2, 0), List.of(2, 1), List.of(0, 1));
        PacerConfig withList = PacerConfig.defaults().with("preferred.leader.deprioritized.list", "2");
        Loop agent = new Loop(topic, "_state-moved");
        agent.runOnce(withList);
        awaitOrders(topic, Map.of(0, List.of(0, 2), 1, List.of(1, 2), 2, List.of(0, 1)));

        // an operator moves partition 0 off broker 2 (a real reassignment)
        admin.alterPartitionReassignments(
                        Map.of(new TopicPartition(topic, 0), Optional.of(new NewPartitionReassignment(List.of(1, 0)))))
                .all()
                .get();
        await().atMost(WAIT)
                .until(() -> describeOrders(topic).get(0).equals(List.of(1, 0))
                        && admin.listPartitionReassignments()
                                .reassignments()
                                .get()
                                .isEmpty());

        agent.runOnce(withList.with("preferred.leader.deprioritized.list", ""));

        assertThat(agent.step.lastReport().conflicts()).singleElement().satisfies(c -> {
            assertThat(c.partition()).isEqualTo(new PartitionId(topic, 0));
            assertThat(c.record().original()).isEqualTo(List.of(2, 0));
            assertThat(c.current()).isEqualTo(List.of(1, 0));
        });
        assertThat(agent.step.conflicts()).hasSize(1);
        assertThat(agent.step.lastReport().restored()).containsExactly(new PartitionId(topic, 1));
        assertThat(awaitOrders(topic, Map.of(0, List.of(1, 0), 1, List.of(2, 1), 2, List.of(0, 1))))
                .as("the moved partition keeps the operator's order; the other one is restored")
                .containsEntry(1, original.get(1));
        assertThat(recordsByPartition("_state-moved")).isEmpty();
        agent.close();
    }

    @Test
    void deletedTopicAndUnreadableRecord_areReportedNeverGuessed() throws Exception {
        String topic = "short-lived";
        createTopic(topic, List.of(2, 0, 1));
        String kept = "kept";
        Map<Integer, List<Integer>> keptOriginal = createTopic(kept, List.of(2, 1, 0));
        PacerConfig withList = PacerConfig.defaults().with("preferred.leader.deprioritized.list", "2");
        Loop agent = new Loop(null, "_state-gone");
        agent.runOnce(withList, topic, kept);
        assertThat(recordsByPartition("_state-gone")).hasSize(2);

        admin.deleteTopics(List.of(topic)).all().get();
        try (KafkaProducer<String, String> p = new KafkaProducer<>(
                Map.of("bootstrap.servers", cluster.bootstrapServers()),
                new StringSerializer(),
                new StringSerializer())) {
            p.send(new ProducerRecord<>("_state-gone", OrderRecordCodec.key(new PartitionId(kept, 0)), "{not json"))
                    .get();
        }
        await().atMost(WAIT).until(() -> !admin.listTopics().names().get().contains(topic));

        agent.runOnce(withList.with("preferred.leader.deprioritized.list", ""), kept);

        assertThat(agent.step.lastReport().forgotten()).containsExactly(new PartitionId(topic, 0));
        assertThat(agent.step.lastReport().unreadable()).containsOnlyKeys(kept + "-0");
        assertThat(agent.step.lastReport().skipped()).containsExactly(new PartitionId(kept, 0));
        assertThat(describeOrders(kept))
                .as("left alone: its original is unreadable")
                .isNotEqualTo(keptOriginal);
        agent.close();
    }

    // ---- the agent: the core agent loop with this package's step and the dynamic configuration ----

    private static final String STATE_TOPIC = "_state-agent";
    private static final String CONFIG_TOPIC = "_config-agent";

    /** One agent process: its own clients' view of the state and config topics, and a fresh engine memory. */
    private static final class AgentInstance implements AutoCloseable {
        final OrderStateStore store;
        final TopicConfigSource config;
        final DeprioritizedOrderStep step;
        final PacerAgent agent;

        AgentInstance(PacerConfig base) {
            Map<String, String> client = Map.of("bootstrap.servers", cluster.bootstrapServers());
            store = new OrderStateStore(new CompactedTopic(admin, client, STATE_TOPIC, Duration.ofSeconds(30)));
            config = new TopicConfigSource(new CompactedTopic(admin, client, CONFIG_TOPIC, Duration.ofSeconds(30)));
            step = DeprioritizedOrderStep.builder(admin, store).batchSize(4).build(); // several batches per run
            agent = PacerAgent.builder(admin)
                    .basePolicy(base)
                    .configSource(config)
                    .replicaOrderStep(step)
                    .build();
        }

        @Override
        public void close() {
            agent.close();
            store.close();
            config.close();
        }
    }

    /** {@code pacer config --bootstrap-server ... --config-topic <the test's> args...}; returns the exit status. */
    private static int pacerConfig(String... args) {
        List<String> all = new ArrayList<>(
                List.of("--bootstrap-server", cluster.bootstrapServers(), "--config-topic", CONFIG_TOPIC));
        all.addAll(List.of(args));
        StringWriter out = new StringWriter();
        int status = new CommandLine(new ConfigCommand())
                .setOut(new PrintWriter(out))
                .setErr(new PrintWriter(out))
                .execute(all.toArray(String[]::new));
        assertThat(out.toString()).doesNotContain("Exception");
        return status;
    }

    private static void awaitLeadersSettled(RunRecord run) {
        await().atMost(WAIT).ignoreExceptions().until(() -> {
            Map<PartitionId, Integer> leaders = new HashMap<>();
            Set<String> topics = new HashSet<>();
            run.results().forEach(r -> topics.add(r.partition().topic()));
            for (TopicDescription t :
                    admin.describeTopics(topics).allTopicNames().get().values()) {
                for (TopicPartitionInfo p : t.partitions()) {
                    leaders.put(
                            new PartitionId(t.name(), p.partition()),
                            p.leader() == null ? -1 : p.leader().id());
                }
            }
            return run.results().stream().allMatch(r -> leaders.get(r.partition()) == r.targetLeader());
        });
    }

    // ---- the same loop driven by hand on one test's topics: read, reorder, decide, elect ----

    /** One agent instance: its own state store and step, and the engine's memory. */
    private static final class Loop implements AutoCloseable {
        final String topic;
        final OrderStateStore store;
        final DeprioritizedOrderStep step;
        BalancerMemory memory = BalancerMemory.empty();
        long nowMs = 0;

        Loop(String topic, String stateTopic) {
            this.topic = topic;
            this.store = new OrderStateStore(new CompactedTopic(
                    admin,
                    Map.of("bootstrap.servers", cluster.bootstrapServers()),
                    stateTopic,
                    Duration.ofSeconds(30)));
            this.step = DeprioritizedOrderStep.builder(admin, store).build();
        }

        ElectionDecision runOnce(PacerConfig config) throws Exception {
            return runOnce(config, topic);
        }

        ElectionDecision runOnce(PacerConfig config, String... topics) throws Exception {
            ClusterSnapshot ordered = step.apply(onlyTopics(reader.read(), List.of(topics)), config);
            ElectionDecision d = PreferredLeaderBalancer.decide(ordered, config, memory, nowMs);
            memory = d.nextMemory();
            nowMs += 1000;
            List<ElectionResult> results = elector.elect(d.elections(), ordered);
            assertThat(results).hasSize(d.elections().size());
            return d;
        }

        @Override
        public void close() {
            store.close();
        }
    }

    private static ClusterSnapshot onlyTopics(ClusterSnapshot all, List<String> topics) {
        ClusterSnapshot.Builder b =
                ClusterSnapshot.builder().brokers(all.brokers().values());
        for (PartitionState p : all.partitions()) {
            if (topics.contains(p.id().topic())) {
                b.partition(p);
            }
        }
        return b.build();
    }

    @SafeVarargs
    private static Map<Integer, List<Integer>> createTopic(String topic, List<Integer>... assignment) throws Exception {
        Map<Integer, List<Integer>> replicas = new TreeMap<>();
        for (int i = 0; i < assignment.length; i++) {
            replicas.put(i, assignment[i]);
        }
        admin.createTopics(List.of(new NewTopic(topic, replicas))).all().get();
        await().atMost(WAIT).ignoreExceptions().until(() -> {
            TopicDescription d =
                    admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic);
            return d.partitions().stream()
                    .allMatch(p -> p.leader() != null
                            && p.leader().id() == p.replicas().get(0).id()
                            && p.isr().size() == p.replicas().size());
        });
        return replicas;
    }

    private static Map<Integer, List<Integer>> describeOrders(String topic) throws Exception {
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

    /** Polls until the brokers show the expected orders (right after a reorder they can briefly show the old one). */
    private static Map<Integer, List<Integer>> awaitOrders(String topic, Map<Integer, List<Integer>> expected) {
        await().atMost(WAIT)
                .ignoreExceptions()
                .until(() -> describeOrders(topic).equals(new TreeMap<>(expected)));
        return new TreeMap<>(expected);
    }

    private static Map<Integer, List<Integer>> expectedDeprioritized(Map<Integer, List<Integer>> original) {
        Map<Integer, List<Integer>> out = new LinkedHashMap<>();
        original.forEach((p, r) -> {
            List<Integer> order = new ArrayList<>(r);
            if (order.remove(Integer.valueOf(DEPRIORITIZED))) {
                order.add(DEPRIORITIZED);
            }
            out.put(p, List.copyOf(order));
        });
        return out;
    }

    private static int leadersOn(String topic, int broker) throws Exception {
        int n = 0;
        for (TopicPartitionInfo p : admin.describeTopics(List.of(topic))
                .allTopicNames()
                .get()
                .get(topic)
                .partitions()) {
            if (p.leader() != null && p.leader().id() == broker) {
                n++;
            }
        }
        return n;
    }

    /** The state topic's records as a fresh reader (another agent instance) sees them. */
    private static Map<PartitionId, OrderRecord> recordsByPartition(String stateTopic) throws Exception {
        try (OrderStateStore fresh = new OrderStateStore(new CompactedTopic(
                admin, Map.of("bootstrap.servers", cluster.bootstrapServers()), stateTopic, Duration.ofSeconds(30)))) {
            return fresh.load().records();
        }
    }

    private static List<OrderRecord> records(String stateTopic) throws Exception {
        return List.copyOf(recordsByPartition(stateTopic).values());
    }
}
