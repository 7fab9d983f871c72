package io.leaderpacer.agent.reorder;

import io.leaderpacer.agent.ElectionResult;
import io.leaderpacer.agent.config.SecretRedactor;
import io.leaderpacer.agent.dynamic.CompactedTopic;
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
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The KIP-491 list on a real 3-broker KRaft cluster (issue test 4): reorder-only reassignments with a write-ahead
 * record, paced leadership drain, exact restoration by a restarted agent, convergence after a crash at either
 * point, and a replica set changed by someone else left alone. One cluster for the class; each test has its own
 * topic and its own state topic and decides on a snapshot of its own topic only, so the tests do not see each
 * other's partitions.
 */
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
    void deprioritizedBroker_drainsInPacedRuns_andRestartedAgentRestoresEveryOriginalOrder() throws Exception {
        String topic = "drain";
        Map<Integer, List<Integer>> original = createTopic(topic,
                List.of(2, 0, 1), List.of(0, 1, 2), List.of(2, 1, 0), List.of(1, 2, 0),
                List.of(2, 0, 1), List.of(0, 2, 1), List.of(2, 1, 0), List.of(1, 0, 2));
        PacerConfig paced = PacerConfig.defaults().withUpdates(Map.of(
                "leader.imbalance.election.max.per.run", "2",
                "preferred.leader.deprioritized.list", Integer.toString(DEPRIORITIZED)));
        assertThat(leadersOn(topic, DEPRIORITIZED)).isEqualTo(4);

        Loop agent = new Loop(topic, "_state-drain");
        List<Integer> leadersOnDeprioritized = new ArrayList<>();
        for (int run = 0; run < 6 && leadersOn(topic, DEPRIORITIZED) > 0; run++) {
            ElectionDecision d = agent.runOnce(paced);
            assertThat(d.elections()).hasSizeLessThanOrEqualTo(2);
            assertThat(d.elections()).allSatisfy(e -> assertThat(e.newLeader()).isNotEqualTo(DEPRIORITIZED));
            awaitLeadersSettled(topic, d);
            leadersOnDeprioritized.add(leadersOn(topic, DEPRIORITIZED));
        }
        // 4 partitions led by broker 2, at most 2 elections per run: 2 left after the first run, none after the second
        assertThat(leadersOnDeprioritized).containsExactly(2, 0);
        Map<Integer, List<Integer>> reordered = awaitOrders(topic, expectedDeprioritized(original));
        assertThat(reordered.values()).allSatisfy(r -> assertThat(r.get(r.size() - 1)).isEqualTo(DEPRIORITIZED));
        assertThat(agent.step.lastReport().reordered()).isEmpty(); // all done in the first run
        assertThat(records("_state-drain")).hasSize(6).allSatisfy((p, r) -> {
            assertThat(r.original()).isEqualTo(original.get(p.partition()));
            assertThat(r.status()).isEqualTo(ReorderStatus.REORDERED);
        });
        agent.close();

        // The agent restarts (new instances, empty memory) and the broker leaves the list.
        Loop restarted = new Loop(topic, "_state-drain");
        PacerConfig noList = paced.with("preferred.leader.deprioritized.list", "");
        restarted.runOnce(noList);
        assertThat(restarted.step.lastReport().restored()).hasSize(6);
        assertThat(awaitOrders(topic, original)).isEqualTo(original);
        assertThat(records("_state-drain")).isEmpty();
        for (int run = 0; run < 6 && leadersOn(topic, DEPRIORITIZED) < 4; run++) {
            awaitLeadersSettled(topic, restarted.runOnce(noList));
        }
        assertThat(leadersOn(topic, DEPRIORITIZED)).as("leadership back on the restored preferred replicas").isEqualTo(4);
        restarted.close();
    }

    @Test
    void crashAfterWriteAhead_nextApplyReordersFromTheStoredOriginal() throws Exception {
        String topic = "crash-write-ahead";
        Map<Integer, List<Integer>> original = createTopic(topic, List.of(2, 0, 1), List.of(0, 2, 1), List.of(1, 0, 2));
        PacerConfig withList = PacerConfig.defaults().with("preferred.leader.deprioritized.list", "2");

        Loop crashing = new Loop(topic, "_state-crash-wa", crashAt(true, false));
        assertThatThrownBy(() -> crashing.runOnce(withList)).hasMessageContaining("crash after write-ahead");
        crashing.close();
        assertThat(describeOrders(topic)).as("no reassignment was issued").isEqualTo(original);
        assertThat(records("_state-crash-wa")).hasSize(2)
                .allSatisfy((p, r) -> assertThat(r.status()).isEqualTo(ReorderStatus.REORDERING));

        Loop next = new Loop(topic, "_state-crash-wa");
        next.runOnce(withList);
        assertThat(awaitOrders(topic, expectedDeprioritized(original))).containsEntry(0, List.of(0, 1, 2))
                .containsEntry(1, List.of(0, 1, 2)).containsEntry(2, List.of(1, 0, 2));
        assertThat(records("_state-crash-wa")).allSatisfy((p, r) -> {
            assertThat(r.original()).isEqualTo(original.get(p.partition()));
            assertThat(r.status()).isEqualTo(ReorderStatus.REORDERED);
        });

        // and the same crash while restoring: the next run still restores the exact originals
        Loop crashingRestore = new Loop(topic, "_state-crash-wa", crashAt(true, false));
        PacerConfig noList = withList.with("preferred.leader.deprioritized.list", "");
        assertThatThrownBy(() -> crashingRestore.runOnce(noList)).hasMessageContaining("crash after write-ahead");
        crashingRestore.close();
        assertThat(records("_state-crash-wa")).allSatisfy((p, r) -> assertThat(r.status()).isEqualTo(ReorderStatus.RESTORING));
        next.runOnce(noList);
        assertThat(awaitOrders(topic, original)).isEqualTo(original);
        assertThat(records("_state-crash-wa")).isEmpty();
        next.close();
    }

    @Test
    void crashAfterReassignment_nextApplyConfirmsWithoutReassigningAgain() throws Exception {
        String topic = "crash-reassigned";
        Map<Integer, List<Integer>> original = createTopic(topic, List.of(2, 1, 0), List.of(1, 0, 2));
        PacerConfig withList = PacerConfig.defaults().with("preferred.leader.deprioritized.list", "2");

        Loop crashing = new Loop(topic, "_state-crash-re", crashAt(false, true));
        assertThatThrownBy(() -> crashing.runOnce(withList)).hasMessageContaining("crash after reassignment");
        crashing.close();
        awaitOrders(topic, expectedDeprioritized(original));
        assertThat(records("_state-crash-re")).hasSize(1).allSatisfy((p, r) -> assertThat(r.status()).isEqualTo(ReorderStatus.REORDERING));

        Loop next = new Loop(topic, "_state-crash-re");
        next.runOnce(withList);
        assertThat(next.step.lastReport().reordered()).as("nothing reassigned again").isEmpty();
        assertThat(records("_state-crash-re")).hasSize(1).allSatisfy((p, r) -> {
            assertThat(r.original()).isEqualTo(List.of(2, 1, 0));
            assertThat(r.status()).isEqualTo(ReorderStatus.REORDERED);
        });

        // a crash after the restoring reassignment: the next run only drops the record
        Loop crashingRestore = new Loop(topic, "_state-crash-re", crashAt(false, true));
        PacerConfig noList = withList.with("preferred.leader.deprioritized.list", "");
        assertThatThrownBy(() -> crashingRestore.runOnce(noList)).hasMessageContaining("crash after reassignment");
        crashingRestore.close();
        awaitOrders(topic, original);
        assertThat(records("_state-crash-re")).hasSize(1);
        next.runOnce(noList);
        assertThat(next.step.lastReport().restored()).containsExactly(new PartitionId(topic, 0));
        assertThat(records("_state-crash-re")).isEmpty();
        assertThat(describeOrders(topic)).isEqualTo(original);
        next.close();
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
        admin.alterPartitionReassignments(Map.of(new TopicPartition(topic, 0),
                Optional.of(new NewPartitionReassignment(List.of(1, 0))))).all().get();
        await().atMost(WAIT).until(() -> describeOrders(topic).get(0).equals(List.of(1, 0))
                && admin.listPartitionReassignments().reassignments().get().isEmpty());

        agent.runOnce(withList.with("preferred.leader.deprioritized.list", ""));

        assertThat(agent.step.lastReport().conflicts()).singleElement().satisfies(c -> {
            assertThat(c.partition()).isEqualTo(new PartitionId(topic, 0));
            assertThat(c.record().original()).isEqualTo(List.of(2, 0));
            assertThat(c.current()).isEqualTo(List.of(1, 0));
        });
        assertThat(agent.step.conflicts()).hasSize(1);
        assertThat(agent.step.lastReport().restored()).containsExactly(new PartitionId(topic, 1));
        assertThat(awaitOrders(topic, Map.of(0, List.of(1, 0), 1, List.of(2, 1), 2, List.of(0, 1))))
                .as("the moved partition keeps the operator's order; the other one is restored").containsEntry(1, original.get(1));
        assertThat(records("_state-moved")).isEmpty();
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
        assertThat(records("_state-gone")).hasSize(2);

        admin.deleteTopics(List.of(topic)).all().get();
        try (KafkaProducer<String, String> p = new KafkaProducer<>(Map.of("bootstrap.servers", cluster.bootstrapServers()),
                new StringSerializer(), new StringSerializer())) {
            p.send(new ProducerRecord<>("_state-gone", OrderRecordCodec.key(new PartitionId(kept, 0)), "{not json")).get();
        }
        await().atMost(WAIT).until(() -> !admin.listTopics().names().get().contains(topic));

        agent.runOnce(withList.with("preferred.leader.deprioritized.list", ""), kept);

        assertThat(agent.step.lastReport().forgotten()).containsExactly(new PartitionId(topic, 0));
        assertThat(agent.step.lastReport().unreadable()).containsOnlyKeys(kept + "-0");
        assertThat(agent.step.lastReport().skipped()).containsExactly(new PartitionId(kept, 0));
        assertThat(describeOrders(kept)).as("left alone: its original is unreadable").isNotEqualTo(keptOriginal);
        agent.close();
    }

    // ---- the agent loop, driven by hand: read, reorder, decide, elect ----

    /** One agent instance: its own state store and step, and the engine's memory. */
    private static final class Loop implements AutoCloseable {
        final String topic;
        final OrderStateStore store;
        final DeprioritizedOrderStep step;
        BalancerMemory memory = BalancerMemory.empty();
        long nowMs = 0;

        Loop(String topic, String stateTopic) {
            this(topic, stateTopic, ReorderListener.NONE);
        }

        Loop(String topic, String stateTopic, ReorderListener listener) {
            this.topic = topic;
            this.store = new OrderStateStore(new CompactedTopic(admin, Map.of("bootstrap.servers", cluster.bootstrapServers()),
                    stateTopic, Duration.ofSeconds(30)));
            this.step = DeprioritizedOrderStep.builder(admin, store).listener(listener).build();
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

    private static ReorderListener crashAt(boolean afterWriteAhead, boolean afterReassignment) {
        return new ReorderListener() {
            @Override
            public void writeAheadDurable(List<ReorderMove> moves) {
                if (afterWriteAhead) {
                    throw new IllegalStateException("simulated crash after write-ahead of " + moves.size());
                }
            }

            @Override
            public void reassigned(List<ReorderMove> moves) {
                if (afterReassignment) {
                    throw new IllegalStateException("simulated crash after reassignment of " + moves.size());
                }
            }
        };
    }

    private static ClusterSnapshot onlyTopics(ClusterSnapshot all, List<String> topics) {
        ClusterSnapshot.Builder b = ClusterSnapshot.builder().brokers(all.brokers().values());
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
            TopicDescription d = admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic);
            return d.partitions().stream().allMatch(p -> p.leader() != null
                    && p.leader().id() == p.replicas().get(0).id() && p.isr().size() == p.replicas().size());
        });
        return replicas;
    }

    private static Map<Integer, List<Integer>> describeOrders(String topic) throws Exception {
        Map<Integer, List<Integer>> out = new TreeMap<>();
        for (TopicPartitionInfo p : admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic).partitions()) {
            out.put(p.partition(), p.replicas().stream().map(Node::id).toList());
        }
        return out;
    }

    /** Polls until the brokers show the expected orders (right after a reorder they can briefly show the old one). */
    private static Map<Integer, List<Integer>> awaitOrders(String topic, Map<Integer, List<Integer>> expected) {
        await().atMost(WAIT).ignoreExceptions().until(() -> describeOrders(topic).equals(new TreeMap<>(expected)));
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
        for (TopicPartitionInfo p : admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic).partitions()) {
            if (p.leader() != null && p.leader().id() == broker) {
                n++;
            }
        }
        return n;
    }

    private static void awaitLeadersSettled(String topic, ElectionDecision d) {
        await().atMost(WAIT).ignoreExceptions().until(() -> {
            Map<Integer, Integer> leaders = new TreeMap<>();
            for (TopicPartitionInfo p : admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic).partitions()) {
                leaders.put(p.partition(), p.leader() == null ? -1 : p.leader().id());
            }
            return d.elections().stream().allMatch(e -> leaders.get(e.partition().partition()) == e.newLeader());
        });
    }

    private static Map<PartitionId, OrderRecord> records(String stateTopic) throws Exception {
        try (OrderStateStore fresh = new OrderStateStore(new CompactedTopic(admin,
                Map.of("bootstrap.servers", cluster.bootstrapServers()), stateTopic, Duration.ofSeconds(30)))) {
            return fresh.load().records();
        }
    }
}
