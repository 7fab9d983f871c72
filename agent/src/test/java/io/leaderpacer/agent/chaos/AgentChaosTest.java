package io.leaderpacer.agent.chaos;

import io.leaderpacer.agent.PacerAgent;
import io.leaderpacer.agent.dynamic.CompactedTopic;
import io.leaderpacer.agent.dynamic.TopicConfigSource;
import io.leaderpacer.agent.reorder.DeprioritizedOrderStep;
import io.leaderpacer.agent.reorder.OrderStateStore;
import io.leaderpacer.embedded.EmbeddedKafkaCluster;
import io.leaderpacer.engine.cluster.PartitionId;
import io.leaderpacer.engine.config.PacerConfig;
import io.leaderpacer.testbed.PacedLoad;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartitionInfo;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue 5, "chaos and load": the agent on its own schedule on a real 4-broker KRaft cluster under steady traffic,
 * while a seeded plan restarts and crashes brokers, throttles their catch-up (slow followers) and changes the
 * deprioritized list. After every run the {@link InvariantChecks} hold; at the end, with every fault over and the
 * list cleared, every partition is back in its original order and led by its first replica, and the state topic
 * is empty.
 *
 * <p>Bounded: about two minutes with the default ten steps. {@code -Dchaos.seed=N} replays a plan (the seed is
 * printed first), {@code -Dchaos.seed=random} draws a new one, {@code -Dchaos.faults=N} makes it longer. The
 * figures go to standard output and {@code target/chaos-report.txt}.
 */
@Tag("cluster")
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class AgentChaosTest {

    /** The default seed: the plan CI runs every time. */
    private static final long DEFAULT_SEED = 491_1358L;

    private static final int DEFAULT_FAULTS = 10;
    static final int BROKERS = 4;
    static final String TOPIC = "chaos-load";
    /** Each of the 24 ordered triples of 4 brokers twice: every preferred broker and every replica order occurs. */
    static final int PARTITIONS = 48;

    private static final String STATE_TOPIC = "_chaos-state";
    private static final String CONFIG_TOPIC = "_chaos-config";
    /** A small cap and short intervals, so that pacing is visible within seconds. */
    static final int CAP = 3;

    private static final PacerConfig POLICY = PacerConfig.fromMap(Map.of(
            "leader.imbalance.check.interval.seconds", "1",
            "leader.imbalance.election.algorithm", "wait-for-sync",
            "leader.imbalance.election.wait.for.sync.threshold.percent", "25",
            "leader.imbalance.election.wait.for.sync.max.wait.ms", "6000",
            "leader.imbalance.election.max.per.run", Integer.toString(CAP),
            "leader.imbalance.election.throttle.interval.ms", "500"));
    /** A slow follower's fetch rate: above the traffic it follows (~75 KB/s), below a quick catch-up. */
    static final long SLOW_FOLLOWER_BYTES_PER_SEC = 120_000;
    /** Longest delay the agent waits between runs (shortens only the five-minute retry after a failed run). */
    static final long MAX_AGENT_DELAY_MS = 2_000;

    static final Duration KAFKA_TIMEOUT = Duration.ofSeconds(10);
    static final Duration SETTLE_LIMIT = Duration.ofSeconds(180);
    private static final Path REPORT = Path.of("target", "chaos-report.txt");

    @Test
    void seededFaults_keepEveryInvariantAfterEveryRun_andEveryPreferredLeaderAndOriginalOrderReturns()
            throws Exception {
        long seed = seed();
        int faults = Integer.getInteger("chaos.faults", DEFAULT_FAULTS);
        System.out.println("chaos seed " + seed + " (replay with -Dchaos.seed=" + seed + ")");
        ChaosSchedule plan = ChaosSchedule.plan(seed, faults, BROKERS);
        System.out.print(plan.describe());

        try (EmbeddedKafkaCluster cluster = startCluster();
                Admin agentAdmin = Admin.create(Map.of(
                        AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                        cluster.bootstrapServers(),
                        AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG,
                        (int) KAFKA_TIMEOUT.toMillis(),
                        AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
                        (int) KAFKA_TIMEOUT.toMillis() * 2))) {
            Map<String, String> client = Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers());
            createLoadTopic(cluster.admin());
            try (OrderStateStore agentState = new OrderStateStore(compacted(cluster, client, STATE_TOPIC));
                    OrderStateStore checkerState = new OrderStateStore(compacted(cluster, client, STATE_TOPIC));
                    TopicConfigSource agentConfig = new TopicConfigSource(compacted(cluster, client, CONFIG_TOPIC));
                    TopicConfigSource operator = new TopicConfigSource(compacted(cluster, client, CONFIG_TOPIC));
                    PacedLoad load = PacedLoad.builder(cluster.bootstrapServers(), TOPIC)
                            .recordsPerSecond(100)
                            .recordBytes(1024)
                            .build()
                            .start()) {
                Map<PartitionId, List<Integer>> originals = awaitAssignments(cluster.admin());
                DeprioritizedOrderStep reorder = DeprioritizedOrderStep.builder(agentAdmin, agentState)
                        .timeout(KAFKA_TIMEOUT)
                        .batchSize(16)
                        .build();
                RecordingOrderStep recorder = new RecordingOrderStep(reorder);
                RunInvariantMonitor monitor =
                        new RunInvariantMonitor(new InvariantChecks(CAP, originals), recorder, reorder, checkerState);
                FaultInjector injector = new FaultInjector(cluster, operator, SLOW_FOLLOWER_BYTES_PER_SEC, TOPIC);
                BoundedDelayScheduler scheduler = new BoundedDelayScheduler(MAX_AGENT_DELAY_MS);
                long chaosMs = 0;
                long settleMs = -1;
                try (PacerAgent agent = PacerAgent.builder(agentAdmin)
                        .basePolicy(POLICY)
                        .configSource(agentConfig)
                        .replicaOrderStep(recorder)
                        .listener(monitor)
                        .scheduler(scheduler)
                        .requestTimeout(KAFKA_TIMEOUT)
                        .clusterLabel(cluster.bootstrapServers())
                        .build()) {
                    agent.start();
                    long start = System.nanoTime();
                    for (int i = 0; i < plan.faults().size(); i++) {
                        ChaosFault step = plan.faults().get(i);
                        System.out.println(
                                "chaos step " + (i + 1) + "/" + plan.faults().size() + ": " + step.describe());
                        injector.apply(step);
                        monitor.throwIfViolated();
                    }
                    if (!injector.list().isEmpty()) {
                        injector.setList(Set.of());
                    }
                    long faultsDone = System.nanoTime();
                    chaosMs = (faultsDone - start) / 1_000_000;
                    await("every partition in its original order, led by its first replica, and the state topic empty")
                            .atMost(SETTLE_LIMIT)
                            .pollInterval(Duration.ofMillis(500))
                            .ignoreExceptions()
                            .until(() -> restored(cluster.admin(), originals)
                                    && checkerState.load().records().isEmpty());
                    settleMs = (System.nanoTime() - faultsDone) / 1_000_000;
                } finally {
                    scheduler.shutdownNow();
                    ChaosReport report = new ChaosReport(
                            new ChaosReport.Plan(seed, plan.faults().size()),
                            ChaosReport.Faults.of(injector),
                            ChaosReport.AgentFaults.NONE,
                            ChaosReport.Runs.of(List.of(monitor)),
                            ChaosReport.Checks.of(List.of(monitor)),
                            new ChaosReport.Timing(chaosMs, settleMs),
                            new ChaosReport.Load(load.sent(), load.failed()));
                    System.out.print(report.text());
                    report.writeTo(REPORT);
                }
                monitor.throwIfViolated();
                assertThat(injector.restarts()).as("restarts survived").isEqualTo(plan.restarts());
                assertThat(monitor.runs()).as("agent runs checked").isGreaterThan(0);
                assertThat(monitor.settledRuns())
                        .as("runs checked with nothing left to move")
                        .isGreaterThan(0);
                if (plan.restarts() > 0) {
                    assertThat(monitor.electionsMade())
                            .as("elections made bringing restarted brokers back")
                            .isGreaterThan(0);
                    assertThat(monitor.cappedRuns())
                            .as("runs that reached the cap (the cap check was tight)")
                            .isGreaterThan(0);
                }
                if (plan.slowFollowerEpisodesOutsideList() > 0) {
                    assertThat(monitor.gatedRuns())
                            .as("runs that held a catching-up broker at the gate")
                            .isGreaterThan(0);
                }
            }
        }
    }

    /** The chaos cluster, started. */
    static EmbeddedKafkaCluster startCluster() {
        return EmbeddedKafkaCluster.builder()
                .brokers(BROKERS)
                // Small follower fetches and a short quota window, so that the follower throttle bites at once.
                .serverProperty("replica.fetch.max.bytes", "16384")
                .serverProperty("replica.fetch.response.max.bytes", "65536")
                .serverProperty("replication.quota.window.num", "2")
                .build()
                .start();
    }

    /** {@code chaos.seed}: a whole number, or {@code random}; the fixed default otherwise. */
    static long seed() {
        String value = System.getProperty("chaos.seed");
        if (value == null || value.isBlank()) {
            return DEFAULT_SEED;
        }
        if (value.trim().equalsIgnoreCase("random")) {
            return ThreadLocalRandom.current().nextLong();
        }
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    "system property chaos.seed must be a whole number or 'random', was '" + value + "'", e);
        }
    }

    /** The load topic with an explicit assignment: partition p gets ordered triple p % 24 of the 4 brokers. */
    static void createLoadTopic(Admin admin) throws Exception {
        List<List<Integer>> triples = new ArrayList<>();
        for (int a = 0; a < BROKERS; a++) {
            for (int b = 0; b < BROKERS; b++) {
                for (int c = 0; c < BROKERS; c++) {
                    if (a != b && b != c && a != c) {
                        triples.add(List.of(a, b, c));
                    }
                }
            }
        }
        Map<Integer, List<Integer>> assignment = new TreeMap<>();
        for (int p = 0; p < PARTITIONS; p++) {
            assignment.put(p, triples.get(p % triples.size()));
        }
        admin.createTopics(List.of(new NewTopic(TOPIC, assignment))).all().get();
    }

    /** The agent's compacted topic, created up front so that its partition is in the originals. */
    static CompactedTopic compacted(EmbeddedKafkaCluster cluster, Map<String, String> client, String name)
            throws Exception {
        CompactedTopic topic = new CompactedTopic(cluster.admin(), client, name, KAFKA_TIMEOUT);
        topic.ensureExists();
        return topic;
    }

    /** Waits until every topic is fully replicated and led by its first replica; returns every partition's order. */
    static Map<PartitionId, List<Integer>> awaitAssignments(Admin admin) {
        await().atMost(Duration.ofSeconds(60))
                .ignoreExceptions()
                .until(() -> describeAll(admin).stream()
                        .allMatch(t -> t.partitions().stream()
                                .allMatch(p -> p.leader() != null
                                        && p.leader().id()
                                                == p.replicas().get(0).id()
                                        && p.isr().size() == p.replicas().size())));
        Map<PartitionId, List<Integer>> out = new TreeMap<>();
        try {
            for (TopicDescription t : describeAll(admin)) {
                for (TopicPartitionInfo p : t.partitions()) {
                    out.put(
                            new PartitionId(t.name(), p.partition()),
                            p.replicas().stream().map(Node::id).toList());
                }
            }
        } catch (Exception e) {
            throw new AssertionError("could not read the cluster's assignments: " + e, e);
        }
        return out;
    }

    /** Whether every partition has its original order and is led by its first replica. */
    static boolean restored(Admin admin, Map<PartitionId, List<Integer>> originals) throws Exception {
        int seen = 0;
        for (TopicDescription t : describeAll(admin)) {
            for (TopicPartitionInfo p : t.partitions()) {
                List<Integer> original = originals.get(new PartitionId(t.name(), p.partition()));
                List<Integer> now = p.replicas().stream().map(Node::id).toList();
                if (original == null
                        || !original.equals(now)
                        || p.leader() == null
                        || p.leader().id() != now.get(0)) {
                    return false;
                }
                seen++;
            }
        }
        return seen == originals.size();
    }

    static List<TopicDescription> describeAll(Admin admin) throws Exception {
        var names = admin.listTopics(new ListTopicsOptions().listInternal(true))
                .names()
                .get();
        return new ArrayList<>(admin.describeTopics(names).allTopicNames().get().values());
    }
}
