package io.leaderpacer.agent.reorder;

import io.leaderpacer.agent.PacerAgent;
import io.leaderpacer.agent.core.ReplicaOrderStep;
import io.leaderpacer.agent.core.RunRecord;
import io.leaderpacer.agent.dynamic.CompactedTopic;
import io.leaderpacer.embedded.EmbeddedKafkaCluster;
import io.leaderpacer.engine.cluster.ClusterSnapshot;
import io.leaderpacer.engine.cluster.PartitionId;
import io.leaderpacer.engine.cluster.PartitionState;
import io.leaderpacer.engine.config.PacerConfig;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ElectLeadersResult;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartitionInfo;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Nothing lost (issue 5): the agent crashes at every step of a deprioritization and of a restoration, a new agent
 * (new process: new clients' view of the state topic, new step, empty engine memory) continues, and once the
 * broker is off the list every partition is back in exactly its original replica order, with no record left in
 * the state topic and leadership on the original preferred replicas.
 *
 * <p>The steps of one batch are: write-ahead record, reorder-only reassignment, confirmation (record
 * {@code REORDERED}, or dropped for a restore), and after all batches the paced preferred elections. Seven
 * partitions, five of which need a move, in batches of two: the crash hits the second batch, so the crashed run
 * leaves one batch done, one half-done and one not started. Elections are capped at two per run, so a crash after
 * the elections leaves leadership half moved. A crash is an exception thrown at that point, after which the
 * crashed agent's objects are never used again. One 3-broker cluster for the class; each case has its own topic
 * and state topic, and its agents see only their own topic.
 */
@Tag("cluster")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class CrashPointClusterTest {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final int DEPRIORITIZED = 2;
    private static final int MAX_RUNS = 40;
    /** Five of seven partitions have broker 2 before another replica; three of them are led by it. */
    private static final List<List<Integer>> ASSIGNMENT = List.of(
            List.of(2, 0, 1),
            List.of(0, 2, 1),
            List.of(2, 1, 0),
            List.of(1, 2, 0),
            List.of(0, 1, 2),
            List.of(2, 0, 1),
            List.of(1, 0, 2));

    private static final PacerConfig NO_LIST =
            PacerConfig.defaults().with("leader.imbalance.election.max.per.run", "2");
    private static final PacerConfig WITH_LIST =
            NO_LIST.with("preferred.leader.deprioritized.list", Integer.toString(DEPRIORITIZED));

    /** Where the agent dies. */
    enum CrashPoint {
        AFTER_WRITE_AHEAD,
        AFTER_REASSIGNMENT,
        AFTER_CONFIRMATION,
        AFTER_ELECTION
    }

    /** What the agent was doing when it died. */
    enum Direction {
        DEPRIORITIZE,
        RESTORE
    }

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

    static Stream<Arguments> crashes() {
        List<Arguments> out = new ArrayList<>();
        for (Direction d : Direction.values()) {
            for (CrashPoint p : CrashPoint.values()) {
                out.add(Arguments.of(p, d));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "crash {0} while {1}")
    @MethodSource("crashes")
    void crashAtAnyStep_newAgentConverges_andEveryOriginalOrderComesBackWithNoRecordLeft(
            CrashPoint point, Direction direction) throws Exception {
        String topic = (point + "-" + direction).toLowerCase(Locale.ROOT).replace('_', '-');
        String stateTopic = "_state-" + topic;
        Map<Integer, List<Integer>> original = createTopic(topic);
        Map<Integer, List<Integer>> deprioritized = deprioritized(original);

        if (direction == Direction.RESTORE) {
            try (Agent before = new Agent(topic, stateTopic, WITH_LIST, ReorderListener.NONE, admin)) {
                before.runUntil(() -> converged(topic, stateTopic, deprioritized, 5));
            }
        }
        PacerConfig crashConfig = direction == Direction.DEPRIORITIZE ? WITH_LIST : NO_LIST;
        Map<Integer, List<Integer>> crashTarget = direction == Direction.DEPRIORITIZE ? deprioritized : original;

        // The agent that dies: the listener or the Admin client throws at the chosen point of its first run.
        Crash crash = new Crash(point);
        int leadersOffTargetBefore = leadersNotOnFirstReplica(topic, crashTarget);
        try (Agent dying = new Agent(topic, stateTopic, crashConfig, crash, crash.admin(admin))) {
            RunRecord crashed = dying.agent.runOnce();
            assertThat(crash.happened).as("the crash point was reached").isTrue();
            assertThat(crashed.failure())
                    .hasValueSatisfying(why -> assertThat(why).contains("simulated crash"));
        }
        assertCrashedWhereIntended(point, direction, topic, stateTopic, crash, crashTarget, leadersOffTargetBefore);

        // A new agent with an empty memory and its own view of the state topic continues.
        ReassignmentLog reassigned = new ReassignmentLog();
        try (Agent next = new Agent(topic, stateTopic, crashConfig, reassigned, admin)) {
            if (direction == Direction.DEPRIORITIZE) {
                next.runUntil(() -> converged(topic, stateTopic, deprioritized, 5));
                assertThat(recordsByPartition(stateTopic)).allSatisfy((p, r) -> {
                    assertThat(r.original()).isEqualTo(original.get(p.partition()));
                    assertThat(r.reordered()).isEqualTo(deprioritized.get(p.partition()));
                    assertThat(r.status()).isEqualTo(ReorderStatus.REORDERED);
                });
            } else {
                next.runUntil(() -> converged(topic, stateTopic, original, 0));
            }
            assertNoRedundantReassignment(point, crash.batch, reassigned.partitions);

            if (direction == Direction.DEPRIORITIZE) {
                next.config.set(NO_LIST); // the broker leaves the list
                next.runUntil(() -> converged(topic, stateTopic, original, 0));
            }
        }

        assertThat(describeOrders(topic))
                .as("every partition in exactly its original order")
                .isEqualTo(original);
        assertThat(recordsByPartition(stateTopic)).as("no record left").isEmpty();
        assertThat(leaders(topic))
                .as("leadership on the original preferred replicas")
                .isEqualTo(firstReplicas(original));
    }

    /** Checks the crashed run left the state the crash point implies, so that each case tests what it names. */
    private static void assertCrashedWhereIntended(
            CrashPoint point,
            Direction direction,
            String topic,
            String stateTopic,
            Crash crash,
            Map<Integer, List<Integer>> target,
            int leadersOffTargetBefore)
            throws Exception {
        Map<Integer, List<Integer>> orders = describeOrders(topic);
        Map<PartitionId, OrderRecord> records = recordsByPartition(stateTopic);
        ReorderStatus moving = direction == Direction.DEPRIORITIZE ? ReorderStatus.REORDERING : ReorderStatus.RESTORING;
        if (point == CrashPoint.AFTER_ELECTION) {
            assertThat(orders).as("all reorders done before the elections").isEqualTo(target);
            int off = leadersNotOnFirstReplica(topic, target);
            assertThat(off)
                    .as("some leaders moved, not all (capped at 2 per run)")
                    .isLessThan(leadersOffTargetBefore)
                    .isPositive();
            return;
        }
        assertThat(crash.batch).isNotEmpty();
        assertThat(orders).as("the crashed run left a batch undone").isNotEqualTo(target);
        for (ReorderMove m : crash.batch) {
            PartitionId p = m.partition();
            List<Integer> now = orders.get(p.partition());
            switch (point) {
                case AFTER_WRITE_AHEAD -> {
                    assertThat(records).as("write-ahead record of %s", p).containsKey(p);
                    assertThat(records.get(p).status()).isEqualTo(moving);
                    assertThat(now).as("no reassignment yet").isEqualTo(m.current());
                }
                case AFTER_REASSIGNMENT -> {
                    assertThat(records).as("write-ahead record of %s", p).containsKey(p);
                    assertThat(records.get(p).status()).isEqualTo(moving);
                    await().atMost(WAIT)
                            .until(() ->
                                    describeOrders(topic).get(p.partition()).equals(m.target()));
                }
                case AFTER_CONFIRMATION -> {
                    assertThat(now).isEqualTo(m.target());
                    if (direction == Direction.DEPRIORITIZE) {
                        assertThat(records).as("confirmed record of %s", p).containsKey(p);
                        assertThat(records.get(p).status()).isEqualTo(ReorderStatus.REORDERED);
                    } else {
                        assertThat(records).as("restored record dropped").doesNotContainKey(p);
                    }
                }
                default -> throw new IllegalStateException(point.toString());
            }
        }
    }

    /**
     * A crash after the write-ahead leaves the reassignment to the next agent; after the reassignment or the
     * confirmation, the next agent only confirms (or drops) the record and never reassigns that batch again.
     */
    private static void assertNoRedundantReassignment(
            CrashPoint point, List<ReorderMove> crashedBatch, Set<PartitionId> reassignedNext) {
        Set<PartitionId> batch = new HashSet<>();
        crashedBatch.forEach(m -> batch.add(m.partition()));
        switch (point) {
            case AFTER_WRITE_AHEAD -> assertThat(reassignedNext).containsAll(batch);
            case AFTER_REASSIGNMENT, AFTER_CONFIRMATION ->
                assertThat(reassignedNext).doesNotContainAnyElementsOf(batch);
            case AFTER_ELECTION ->
                assertThat(reassignedNext)
                        .as("every reorder was done before the crash")
                        .isEmpty();
            default -> throw new IllegalStateException(point.toString());
        }
    }

    /** The target orders are in place, every partition is led by its first replica, and the records are as many as expected. */
    private static boolean converged(String topic, String stateTopic, Map<Integer, List<Integer>> orders, int records)
            throws Exception {
        return describeOrders(topic).equals(orders)
                && leaders(topic).equals(firstReplicas(orders))
                && recordsByPartition(stateTopic).size() == records;
    }

    // ---- the agent process ----

    /**
     * One agent process: the real {@link PacerAgent} with the KIP-491 step on a state store of its own, on a
     * snapshot limited to the case's topic (other cases' topics are not its business).
     */
    private static final class Agent implements AutoCloseable {
        final AtomicReference<PacerConfig> config;
        final OrderStateStore store;
        final PacerAgent agent;

        Agent(String topic, String stateTopic, PacerConfig initial, ReorderListener listener, Admin client) {
            this.config = new AtomicReference<>(initial);
            this.store = new OrderStateStore(new CompactedTopic(
                    client,
                    Map.of("bootstrap.servers", cluster.bootstrapServers()),
                    stateTopic,
                    Duration.ofSeconds(30)));
            DeprioritizedOrderStep step = DeprioritizedOrderStep.builder(client, store)
                    .batchSize(2)
                    .listener(listener)
                    .build();
            ReplicaOrderStep ownTopicOnly = (snapshot, cfg) -> step.apply(onlyTopic(snapshot, topic), cfg);
            this.agent = PacerAgent.builder(client)
                    .basePolicy(config::get)
                    .replicaOrderStep(ownTopicOnly)
                    .build();
        }

        /** Runs until the condition holds, each run's elections awaited; fails after {@value #MAX_RUNS} runs. */
        void runUntil(ThrowingCondition done) throws Exception {
            for (int run = 0; run < MAX_RUNS; run++) {
                RunRecord r = agent.runOnce();
                assertThat(r.failure()).as("run %d", run).isEmpty();
                awaitLeadersSettled(r);
                if (done.holds()) {
                    return;
                }
            }
            throw new AssertionError("not converged after " + MAX_RUNS + " runs");
        }

        @Override
        public void close() {
            agent.close();
            store.close();
        }
    }

    @FunctionalInterface
    private interface ThrowingCondition {
        boolean holds() throws Exception;
    }

    /**
     * Throws at the chosen point: in the step's listener on the second batch, or in the Admin client right after
     * the first preferred election completed in Kafka.
     */
    private static final class Crash implements ReorderListener {
        final CrashPoint point;
        /** Calls of the chosen hook so far. */
        final AtomicInteger calls = new AtomicInteger();
        /** The batch the crash hit. */
        volatile List<ReorderMove> batch = List.of();

        volatile boolean happened;

        Crash(CrashPoint point) {
            this.point = point;
        }

        @Override
        public void writeAheadDurable(List<ReorderMove> moves) {
            maybeCrash(CrashPoint.AFTER_WRITE_AHEAD, moves);
        }

        @Override
        public void reassigned(List<ReorderMove> moves) {
            maybeCrash(CrashPoint.AFTER_REASSIGNMENT, moves);
        }

        @Override
        public void confirmed(List<ReorderMove> moves) {
            maybeCrash(CrashPoint.AFTER_CONFIRMATION, moves);
        }

        private void maybeCrash(CrashPoint at, List<ReorderMove> moves) {
            if (at == point && calls.incrementAndGet() == 2) {
                batch = List.copyOf(moves);
                happened = true;
                throw new IllegalStateException("simulated crash " + at + " of " + moves.size() + " partition(s)");
            }
        }

        /** The real client, or for {@link CrashPoint#AFTER_ELECTION} one that dies once Kafka has made the first elections. */
        Admin admin(Admin real) {
            if (point != CrashPoint.AFTER_ELECTION) {
                return real;
            }
            AtomicBoolean done = new AtomicBoolean();
            return (Admin) Proxy.newProxyInstance(
                    Admin.class.getClassLoader(), new Class<?>[] {Admin.class}, (proxy, method, args) -> {
                        Object result;
                        try {
                            result = method.invoke(real, args);
                        } catch (InvocationTargetException e) {
                            throw e.getCause();
                        }
                        if (method.getName().equals("electLeaders") && done.compareAndSet(false, true)) {
                            ((ElectLeadersResult) result).partitions().get(30, TimeUnit.SECONDS);
                            happened = true;
                            throw new IllegalStateException("simulated crash after election");
                        }
                        return result;
                    });
        }
    }

    /** Records which partitions an agent reassigned. */
    private static final class ReassignmentLog implements ReorderListener {
        final Set<PartitionId> partitions = ConcurrentHashMap.newKeySet();

        @Override
        public void reassigned(List<ReorderMove> moves) {
            moves.forEach(m -> partitions.add(m.partition()));
        }
    }

    // ---- reading the cluster ----

    private static ClusterSnapshot onlyTopic(ClusterSnapshot all, String topic) {
        ClusterSnapshot.Builder b =
                ClusterSnapshot.builder().brokers(all.brokers().values());
        for (PartitionState p : all.partitions()) {
            if (p.id().topic().equals(topic)) {
                b.partition(p);
            }
        }
        return b.build();
    }

    private static Map<Integer, List<Integer>> createTopic(String topic) throws Exception {
        Map<Integer, List<Integer>> replicas = new TreeMap<>();
        for (int i = 0; i < ASSIGNMENT.size(); i++) {
            replicas.put(i, ASSIGNMENT.get(i));
        }
        admin.createTopics(List.of(new NewTopic(topic, replicas))).all().get();
        await().atMost(WAIT).ignoreExceptions().until(() -> leaders(topic).equals(firstReplicas(replicas)));
        return replicas;
    }

    private static Map<Integer, List<Integer>> deprioritized(Map<Integer, List<Integer>> original) {
        Map<Integer, List<Integer>> out = new TreeMap<>();
        original.forEach((p, r) -> {
            List<Integer> order = new ArrayList<>(r);
            order.remove(Integer.valueOf(DEPRIORITIZED));
            order.add(DEPRIORITIZED);
            out.put(p, List.copyOf(order));
        });
        return out;
    }

    private static Map<Integer, Integer> firstReplicas(Map<Integer, List<Integer>> orders) {
        Map<Integer, Integer> out = new TreeMap<>();
        orders.forEach((p, r) -> out.put(p, r.get(0)));
        return out;
    }

    private static TopicDescription describe(String topic) throws Exception {
        return admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic);
    }

    private static Map<Integer, List<Integer>> describeOrders(String topic) throws Exception {
        Map<Integer, List<Integer>> out = new TreeMap<>();
        for (TopicPartitionInfo p : describe(topic).partitions()) {
            out.put(p.partition(), p.replicas().stream().map(Node::id).toList());
        }
        return out;
    }

    private static Map<Integer, Integer> leaders(String topic) throws Exception {
        Map<Integer, Integer> out = new TreeMap<>();
        for (TopicPartitionInfo p : describe(topic).partitions()) {
            out.put(
                    p.partition(),
                    p.leader() == null || p.leader().isEmpty() ? -1 : p.leader().id());
        }
        return out;
    }

    private static int leadersNotOnFirstReplica(String topic, Map<Integer, List<Integer>> orders) throws Exception {
        Map<Integer, Integer> leaders = leaders(topic);
        int n = 0;
        for (Map.Entry<Integer, List<Integer>> e : orders.entrySet()) {
            if (!leaders.get(e.getKey()).equals(e.getValue().get(0))) {
                n++;
            }
        }
        return n;
    }

    private static void awaitLeadersSettled(RunRecord run) {
        BooleanSupplier settled = () -> {
            try {
                Map<PartitionId, Integer> now = new HashMap<>();
                Set<String> topics = new HashSet<>();
                run.results().forEach(r -> topics.add(r.partition().topic()));
                for (TopicDescription t :
                        admin.describeTopics(topics).allTopicNames().get().values()) {
                    for (TopicPartitionInfo p : t.partitions()) {
                        now.put(
                                new PartitionId(t.name(), p.partition()),
                                p.leader() == null ? -1 : p.leader().id());
                    }
                }
                return run.results().stream().allMatch(r -> now.get(r.partition()) == r.targetLeader());
            } catch (Exception e) {
                return false;
            }
        };
        await().atMost(WAIT).until(settled::getAsBoolean);
    }

    /** The state topic's records as a fresh reader (another agent instance) sees them. */
    private static Map<PartitionId, OrderRecord> recordsByPartition(String stateTopic) throws Exception {
        try (OrderStateStore fresh = new OrderStateStore(new CompactedTopic(
                admin, Map.of("bootstrap.servers", cluster.bootstrapServers()), stateTopic, Duration.ofSeconds(30)))) {
            StoredOrders stored = fresh.load();
            assertThat(stored.unreadable()).isEmpty();
            return stored.records();
        }
    }
}
