package io.leaderpacer.agent;

import io.leaderpacer.agent.core.ElectionOutcome;
import io.leaderpacer.agent.core.RunRecord;
import io.leaderpacer.embedded.EmbeddedKafkaCluster;
import io.leaderpacer.engine.config.PacerConfig;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartitionInfo;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Benchmark (not a test): the cost of one agent run on a 10,000-partition cluster, and the delay from "the gate
 * would release" to the first election. Results go to docs/PERFORMANCE.md ("## Agent").
 *
 * <p>Why a main class on a real cluster: a run is dominated by Kafka round trips (describe, elect), which only a
 * real cluster shows. The cluster is in this JVM, so the figures include the brokers' own CPU use on the same
 * cores: they are an upper bound for an agent next to a real cluster.
 *
 * <p>All brokers run in this JVM, which holds one open file per replica; where the open-file limit is 20,000 (as
 * on the machine the figures were measured on) 30,000 replicas do not fit, so by default 2,000 of the partitions
 * have 3 replicas (they provide the elections) and 8,000 have one. The replication factor only changes the length
 * of the replica lists in the describe answers.
 *
 * <p>Arguments (all optional): partitions (10000), of which with 3 replicas (2000), measured runs (7).
 */
public final class AgentRunBenchmark {

    /** Restarts (and gate releases) measured. */
    private static final int REPEATS = 3;

    private AgentRunBenchmark() {}

    private static List<RunRecord> runUntilBalanced(PacerAgent agent) {
        List<RunRecord> electing = new ArrayList<>();
        while (true) {
            RunRecord r = agent.runOnce();
            check(r);
            if (r.results().isEmpty()) {
                return electing;
            }
            electing.add(r);
        }
    }

    public static void main(String[] args) throws Exception {
        int partitions = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        int replicated = args.length > 1 ? Integer.parseInt(args[1]) : 2_000;
        int runs = args.length > 2 ? Integer.parseInt(args[2]) : 7;
        System.out.printf(
                Locale.ROOT,
                "agent run benchmark: %d partitions in topics of 100 (%d with 3 replicas, %d with 1),"
                        + " 3 brokers in this JVM%n",
                partitions,
                replicated,
                partitions - replicated);
        try (EmbeddedKafkaCluster cluster = EmbeddedKafkaCluster.builder()
                .brokers(3)
                .serverProperty("replica.fetch.max.bytes", "16384")
                .serverProperty("replica.fetch.response.max.bytes", "65536")
                .build()
                .start()) {
            long t0 = System.nanoTime();
            createTopics(cluster.admin(), "bench-rf3-", replicated / 100, 100, 3);
            createTopics(cluster.admin(), "bench-rf1-", (partitions - replicated) / 100, 100, 1);
            System.out.printf(
                    Locale.ROOT, "created %d partitions in %.1f s%n", partitions, (System.nanoTime() - t0) / 1e9);

            PacerConfig immediate = PacerConfig.fromMap(Map.of("leader.imbalance.check.interval.seconds", "1"));
            try (PacerAgent agent = PacerAgent.builder(cluster.admin())
                    .basePolicy(immediate)
                    .requestTimeout(Duration.ofSeconds(60))
                    .build()) {
                agent.runOnce(); // warm-up: class loading, connections
                double[] idle = new double[runs];
                double[] idleRead = new double[runs];
                for (int i = 0; i < runs; i++) {
                    RunRecord r = agent.runOnce();
                    check(r);
                    idle[i] = r.timings().totalMillis();
                    idleRead[i] = r.timings().readNanos() / 1e6;
                }
                System.out.printf(
                        Locale.ROOT,
                        "balanced cluster, nothing to elect: run median %.0f ms (read %.0f ms) over %d runs%n",
                        median(idle),
                        median(idleRead),
                        runs);

                List<RunRecord> electing = new ArrayList<>();
                for (int restart = 0; restart < REPEATS; restart++) {
                    cluster.stopBroker(2);
                    cluster.startBroker(2);
                    awaitFullIsr(cluster.admin());
                    electing.addAll(runUntilBalanced(agent));
                }
                double[] total = electing.stream()
                        .mapToDouble(r -> r.timings().totalMillis())
                        .toArray();
                double[] read = electing.stream()
                        .mapToDouble(r -> r.timings().readNanos() / 1e6)
                        .toArray();
                double[] decide = electing.stream()
                        .mapToDouble(r -> r.timings().decideNanos() / 1e6)
                        .toArray();
                double[] elect = electing.stream()
                        .mapToDouble(r -> r.timings().electNanos() / 1e6)
                        .toArray();
                System.out.printf(
                        Locale.ROOT,
                        "after restarting broker 2 (%d times): %d runs of up to 1000 elections (%s elected): run median %.0f ms"
                                + " (read %.0f, decide %.1f, elect %.0f ms); max run %.0f ms%n",
                        REPEATS,
                        electing.size(),
                        electing.stream()
                                .map(r -> Long.toString(r.count(ElectionOutcome.ELECTED)))
                                .toList(),
                        median(total),
                        median(read),
                        median(decide),
                        median(elect),
                        Arrays.stream(total).max().orElse(0));
            }
            cluster.createTopic("backlog", 30, 3);
            List<Long> sent = new ArrayList<>();
            List<Long> done = new ArrayList<>();
            for (int i = 0; i < REPEATS; i++) {
                long[] delay = measureReleaseDelay(cluster);
                if (delay != null) {
                    sent.add(delay[0]);
                    done.add(delay[1]);
                }
            }
            System.out.printf(
                    Locale.ROOT,
                    "gate would release -> first election (check interval 1 s): request sent after %s ms,"
                            + " completed after %s ms; median %.0f / %.0f ms%n",
                    sent,
                    done,
                    median(sent.stream().mapToDouble(Long::doubleValue).toArray()),
                    median(done.stream().mapToDouble(Long::doubleValue).toArray()));
        }
    }

    /**
     * Broker 2 restarts with a backlog on one topic and a follower throttle, so it is active but out of sync (gated,
     * threshold 0). An observer polls that topic's ISRs; when the last one includes broker 2 the gate "would
     * release". The agent needs two consecutive clear runs (hysteresis), so with a 1 s check interval the expected
     * delay is about 1-2 s plus one read.
     */
    private static long[] measureReleaseDelay(EmbeddedKafkaCluster cluster) throws Exception {
        String topic = "backlog";
        RecoveryScenario.setFollowerThrottle(cluster, 2, 300_000, topic);
        cluster.stopBroker(2);
        RecoveryScenario.writeBacklog(cluster, topic, 30, 3_000_000);
        PacerConfig gated = PacerConfig.fromMap(Map.of(
                "leader.imbalance.election.algorithm", "wait-for-sync",
                "leader.imbalance.check.interval.seconds", "1"));
        AtomicLong firstElectionSentMs = new AtomicLong(-1);
        AtomicLong firstElectionDoneMs = new AtomicLong(-1);
        try (PacerAgent agent = PacerAgent.builder(cluster.admin())
                .basePolicy(gated)
                .requestTimeout(Duration.ofSeconds(60))
                .listener(r -> {
                    if (r.electedTo(2) > 0 && firstElectionDoneMs.get() < 0) {
                        long sent = r.startedAtMs()
                                + (r.timings().readNanos()
                                                + r.timings().orderNanos()
                                                + r.timings().decideNanos())
                                        / 1_000_000;
                        firstElectionSentMs.set(sent);
                        firstElectionDoneMs.set(r.finishedAtMs());
                    }
                })
                .build()) {
            agent.start();
            cluster.startBroker(2);
            long releaseMs = -1;
            while (firstElectionDoneMs.get() < 0) {
                if (releaseMs < 0 && allInIsr(cluster.admin(), topic, 2)) {
                    releaseMs = System.currentTimeMillis();
                }
                Thread.sleep(50);
            }
            long gatedRuns = agent.history().stream()
                    .filter(r -> r.decision().map(d -> d.isGated(2)).orElse(false))
                    .count();
            if (releaseMs < 0 || gatedRuns == 0) {
                System.out.println(
                        "gate not observed closed then released (" + gatedRuns + " gated runs); sample dropped");
                return null;
            }
            long[] delays = {firstElectionSentMs.get() - releaseMs, firstElectionDoneMs.get() - releaseMs};
            // Let the agent return every leader before the next sample.
            while (agent.history()
                    .get(agent.history().size() - 1)
                    .decision()
                    .map(d -> d.imbalancedCount() > 0)
                    .orElse(true)) {
                Thread.sleep(200);
            }
            return delays;
        } finally {
            RecoveryScenario.clearFollowerThrottle(cluster, 2, topic);
        }
    }

    private static void createTopics(Admin admin, String prefix, int topics, int partitionsPerTopic, int rf)
            throws Exception {
        List<NewTopic> batch = new ArrayList<>();
        for (int t = 0; t < topics; t++) {
            batch.add(new NewTopic(String.format(Locale.ROOT, "%s%03d", prefix, t), partitionsPerTopic, (short) rf));
            if (batch.size() == 10 || t == topics - 1) {
                admin.createTopics(batch).all().get();
                batch.clear();
            }
        }
        awaitFullIsr(admin);
    }

    private static void awaitFullIsr(Admin admin) throws Exception {
        long deadline = System.nanoTime() + Duration.ofMinutes(10).toNanos();
        while (System.nanoTime() < deadline) {
            Collection<TopicDescription> all = admin.describeTopics(
                            admin.listTopics().names().get())
                    .allTopicNames()
                    .get()
                    .values();
            boolean full = all.stream()
                    .flatMap(d -> d.partitions().stream())
                    .allMatch(p ->
                            p.leader() != null && p.isr().size() == p.replicas().size());
            if (full) {
                return;
            }
            Thread.sleep(500);
        }
        throw new IllegalStateException("ISRs not full after 10 minutes");
    }

    private static boolean allInIsr(Admin admin, String topic, int broker) throws Exception {
        for (TopicPartitionInfo p : RecoveryScenario.describe(admin, topic)) {
            if (p.isr().stream().noneMatch(n -> n.id() == broker)) {
                return false;
            }
        }
        return true;
    }

    /** Fails the benchmark on a failed run: a figure of a failed run measures nothing. Shared with AgentGrowthBenchmark. */
    static void check(RunRecord r) {
        if (!r.succeeded()) {
            throw new IllegalStateException("run failed: " + r.failure().orElse(""));
        }
    }

    /** The median of the values (0 when there are none). Shared with AgentGrowthBenchmark. */
    static double median(double[] values) {
        double[] v = values.clone();
        Arrays.sort(v);
        return v.length == 0 ? 0 : v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }
}
