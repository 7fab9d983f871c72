package io.leaderpacer.agent.pacing;

import io.leaderpacer.agent.PacerAgent;
import io.leaderpacer.agent.RecoveryScenario;
import io.leaderpacer.agent.core.PacingReport;
import io.leaderpacer.agent.throttle.ThrottleConfigSnapshot;
import io.leaderpacer.embedded.EmbeddedKafkaCluster;
import io.leaderpacer.engine.config.PacerConfig;
import io.leaderpacer.engine.pacing.BrokerPacing;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntFunction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The pacing rule's control on a real in-JVM cluster with Kafka's own quota window (11 samples of 1 s): the stall
 * detector raising a rate the inflow uses up, measured from real log sizes; and the adaptive mode moving the rate up
 * while its signal is healthy and down when it is not, with Kafka reporting each rate it set. The signal is given by
 * the test (a canary's ratio that it scripts), since an in-JVM broker cannot be made slow on cue; the load test shows
 * the real canary's (pacing.csv of the evidence runs).
 */
@Tag("cluster")
@Tag("timing")
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class PacingControlClusterTest {

    private static final String TOPIC = "controlled";
    private static final int PARTITIONS = 6;
    private static final Set<Integer> ALL = Set.of(0, 1, 2);

    private static EmbeddedKafkaCluster cluster;

    @BeforeAll
    static void startCluster() throws Exception {
        // Kafka's own quota window (replication.quota.window.num 11); small fetch responses (64 KiB), so that a low
        // rate holds. A partition may fill a whole response: with 16 KiB per partition and one to three partitions
        // left behind, broker 2 fetched 22-55 % of what the rate allowed for 90 s, a catch-up not held by its
        // throttle, which the stall detector rightly leaves alone (the first test then waited in vain, as in a
        // clean-clone run).
        cluster = EmbeddedKafkaCluster.builder()
                .brokers(3)
                .serverProperty("replica.fetch.max.bytes", "65536")
                .serverProperty("replica.fetch.response.max.bytes", "65536")
                .build()
                .start();
        cluster.createTopic(TOPIC, PARTITIONS, 3);
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static PacerAgent agent(Map<String, String> keys, IntFunction<OptionalDouble> canary) {
        Map<String, String> m = new HashMap<>(keys);
        m.put("leader.imbalance.catch.up.pacing.interval.ms", "1000");
        m.put("leader.imbalance.catch.up.pacing.unthrottled.lag.bytes", "0");
        // Restarted within replica.lag.time.max.ms: these tests are about the throttle itself, set at once.
        m.put("leader.imbalance.catch.up.pacing.lag.time.max.ms", "0");
        return PacerAgent.builder(cluster.admin())
                .basePolicy(PacerConfig.fromMap(m))
                .ledgerStore(LedgerStore.inMemory())
                .canary(canary)
                .requestTimeout(Duration.ofSeconds(30))
                .build();
    }

    @Test
    void aStaticRateUnderTheInflow_isRaisedByTheStallDetector_andTheCatchUpThenEnds() throws Exception {
        Map<String, String> before = ThrottleConfigSnapshot.of(cluster.admin(), ALL);
        AtomicBoolean writing = new AtomicBoolean(true);
        // The premise: an inflow well over the 40,000 B/s rate. At 120,000 B/s it held alone, but in the full suite
        // (two forks, each with a cluster) the catch-up outran the inflow and ended at 40,000 B/s in 75 s with no
        // stall to detect; ten times the rate keeps the premise on a loaded machine.
        Thread producer = inflow(writing, 400_000);
        try (PacerAgent agent = agent(
                Map.of(
                        "leader.imbalance.catch.up.pacing",
                        "static",
                        "leader.imbalance.catch.up.pacing.rate.bytes",
                        "40000",
                        "leader.imbalance.catch.up.pacing.min.rate.bytes",
                        "40000",
                        "leader.imbalance.catch.up.pacing.max.rate.bytes",
                        "2000000"),
                b -> OptionalDouble.empty())) {
            cluster.stopBroker(2);
            // The premise: a catch-up held by its throttle. Each partition's backlog (the least, 1/21 of it: 140 KB) is
            // more than its share of what Kafka's quota lets through at once when it starts (about ten windows of
            // the rate, 400 KB, across six partitions), so no partition is back in sync at the first look; with
            // 1 MB, three were in a failing run, and the other three could not use the rate.
            RecoveryScenario.writeBacklog(cluster, TOPIC, PARTITIONS, 3_000_000);
            agent.paceOnce();
            cluster.startBroker(2);
            AtomicReference<BrokerPacing> raised = new AtomicReference<>();
            List<String> seen = new ArrayList<>();
            await().atMost(Duration.ofSeconds(90))
                    .pollInterval(Duration.ofSeconds(1))
                    .untilAsserted(() -> {
                        PacingReport r = agent.paceOnce();
                        assertThat(r.problem()).isEmpty();
                        r.brokers().forEach(b -> seen.add(b.reason()));
                        r.brokers().stream()
                                .filter(b -> stallDetectorRaise(b.reason()))
                                .findFirst()
                                .ifPresent(raised::set);
                        assertThat(raised.get())
                                .as(
                                        "raised by the stall detector; every reason seen, in order: %s",
                                        new ArrayList<>(new LinkedHashSet<>(seen)))
                                .isNotNull();
                    });
            // Without its inflow term the raise is max(rate + min rate, 1.5 x rate) = 80,000 B/s; more than that is
            // twice the inflow it measured (what the producer reaches depends on the machine, so not a fixed figure).
            assertThat(raised.get().rateBytes().getAsLong())
                    .as(
                            "raised by twice the inflow it measured: %s",
                            raised.get().reason())
                    .isGreaterThan(80_000);
            assertThat(raised.get().reason()).contains("of it inflow").contains("raised to");
            writing.set(false);
            producer.join(10_000);
            await().atMost(Duration.ofSeconds(120))
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> agent.paceOnce().brokers().isEmpty() && outOfSync() == 0);
        } finally {
            writing.set(false);
            producer.join(10_000);
        }
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(ThrottleConfigSnapshot.of(cluster.admin(), ALL))
                        .isEqualTo(before));
    }

    /**
     * Whether a reason is one of the stall detector's two raises: "stalled under its throttle" when the catch-up fetched
     * at least 70 % of the rate in a window, "something else holds it" after two windows when it fetched less. Which
     * one a run shows depends on whether the follower could use its allowance on the machine at that moment: alone it
     * fetched 83-104 % of the 40,000 B/s in its first window (nine runs), while in a full suite run it fetched 16.7 KiB/s
     * of 39.1 over two (docs/evidence/JOURNAL.md, "The stall detector's window at 40,000 B/s"). Both raise the rate
     * by the same rule, which the assertions after the wait check.
     */
    private static boolean stallDetectorRaise(String reason) {
        return reason.startsWith("catch-up stalled under its throttle")
                || (reason.startsWith("bytes behind did not fall for 2 windows")
                        && reason.contains("something else holds it"));
    }

    @Test
    void adaptive_raisesItsRateWhileTheSignalIsHealthy_andCutsItWhenItIsNot_asKafkaReportsIt() throws Exception {
        Map<String, String> before = ThrottleConfigSnapshot.of(cluster.admin(), ALL);
        AtomicReference<Double> ratio = new AtomicReference<>(1.0);
        List<Long> reported = new ArrayList<>();
        try (PacerAgent agent = agent(
                Map.of(
                        "leader.imbalance.catch.up.pacing",
                        "adaptive",
                        "leader.imbalance.catch.up.pacing.rate.bytes",
                        "100000",
                        "leader.imbalance.catch.up.pacing.min.rate.bytes",
                        "50000",
                        "leader.imbalance.catch.up.pacing.max.rate.bytes",
                        "1000000"),
                b -> OptionalDouble.of(ratio.get()))) {
            cluster.stopBroker(2);
            RecoveryScenario.writeBacklog(cluster, TOPIC, PARTITIONS, 20_000_000);
            agent.paceOnce();
            cluster.startBroker(2);
            for (int i = 0; i < 24 && outOfSync() > 0; i++) {
                if (i == 12) {
                    ratio.set(4.0);
                }
                agent.paceOnce();
                String v = ThrottleConfigSnapshot.of(cluster.admin(), ALL)
                        .get("broker 2 follower.replication.throttled.rate");
                if (v != null && (reported.isEmpty() || reported.get(reported.size() - 1) != Long.parseLong(v))) {
                    reported.add(Long.parseLong(v));
                }
                Thread.sleep(1000);
            }
            long peak = reported.stream().mapToLong(Long::longValue).max().orElse(0);
            assertThat(peak)
                    .as("raised while healthy; rates Kafka reported: %s", reported)
                    .isGreaterThan(100_000);
            assertThat(reported.get(reported.size() - 1))
                    .as("cut when not; rates Kafka reported: %s", reported)
                    .isLessThan(peak);
            ratio.set(1.0);
            await().atMost(Duration.ofSeconds(150))
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> agent.paceOnce().brokers().isEmpty() && outOfSync() == 0);
        }
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(ThrottleConfigSnapshot.of(cluster.admin(), ALL))
                        .isEqualTo(before));
    }

    /**
     * The recovery deadline on a real cluster: a static rate at which broker 2's preferred replicas would take over
     * 70 s to catch up, and a deadline of 30 s from unfencing. Pacing raises the rate to what the deadline needs and
     * says so, and the preferred replicas are back in their ISR within the deadline (with 10 s for Kafka's quota
     * window and the looks' second); without the deadline they would still be catching up.
     */
    @Test
    void aDeadline_raisesAStaticRateToWhatItNeeds_andThePreferredReplicasAreBackInTime() throws Exception {
        Map<String, String> before = ThrottleConfigSnapshot.of(cluster.admin(), ALL);
        long deadlineMs = 30_000;
        try (PacerAgent agent = agent(
                Map.of(
                        "leader.imbalance.catch.up.pacing",
                        "static",
                        "leader.imbalance.catch.up.pacing.rate.bytes",
                        "40000",
                        "leader.imbalance.catch.up.pacing.min.rate.bytes",
                        "40000",
                        "leader.imbalance.catch.up.pacing.max.rate.bytes",
                        "20000000",
                        "leader.imbalance.catch.up.pacing.preferred.first",
                        "true",
                        "leader.imbalance.catch.up.pacing.deadline.ms",
                        Long.toString(deadlineMs)),
                b -> OptionalDouble.empty())) {
            cluster.stopBroker(2);
            // 12 MB over six partitions, partition p weighted (p + 1) / 21: broker 2 is the preferred leader of two of
            // them, 2.9 to 5.1 MB by the placement, which at 40,000 B/s take 71 to 128 s.
            RecoveryScenario.writeBacklog(cluster, TOPIC, PARTITIONS, 12_000_000);
            agent.paceOnce();
            cluster.startBroker(2);
            long unfenced = System.nanoTime();
            List<Long> decided = new ArrayList<>();
            List<String> reasons = new ArrayList<>();
            long backMs = -1;
            while ((System.nanoTime() - unfenced) / 1_000_000 < deadlineMs + 60_000) {
                PacingReport r = agent.paceOnce();
                assertThat(r.problem()).isEmpty();
                r.brokers().stream().filter(b -> b.broker() == 2).forEach(b -> {
                    b.rateBytes().ifPresent(decided::add);
                    reasons.add(b.reason());
                });
                if (preferredOutOfSync(2) == 0) {
                    backMs = (System.nanoTime() - unfenced) / 1_000_000;
                    break;
                }
                Thread.sleep(1000);
            }

            assertThat(reasons).as("pacing names the deadline").anyMatch(x -> x.contains("deadline"));
            assertThat(decided.stream().mapToLong(Long::longValue).max().orElse(0))
                    .as("raised over the static rate for the deadline; reasons %s", reasons)
                    .isGreaterThan(80_000);
            assertThat(backMs)
                    .as("broker 2's preferred replicas back in their ISR, ms after unfencing; reasons %s", reasons)
                    .isBetween(0L, deadlineMs + 10_000);
            await().atMost(Duration.ofSeconds(150))
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> agent.paceOnce().brokers().isEmpty() && outOfSync() == 0);
        }
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(ThrottleConfigSnapshot.of(cluster.admin(), ALL))
                        .isEqualTo(before));
    }

    /** Out-of-sync replicas of the partitions {@code broker} is the preferred leader of. */
    private static int preferredOutOfSync(int broker) throws Exception {
        int n = 0;
        for (TopicPartitionInfo p : RecoveryScenario.describe(cluster.admin(), TOPIC)) {
            if (p.replicas().get(0).id() == broker && p.isr().stream().noneMatch(r -> r.id() == broker)) {
                n++;
            }
        }
        return n;
    }

    /** A producer writing about {@code bytesPerSecond} into the topic until {@code writing} is cleared. */
    private static Thread inflow(AtomicBoolean writing, long bytesPerSecond) {
        Thread t = new Thread(
                () -> {
                    Map<String, Object> p = new HashMap<>();
                    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers());
                    p.put(ProducerConfig.ACKS_CONFIG, "1");
                    byte[] record = new byte[1000];
                    try (KafkaProducer<byte[], byte[]> producer =
                            new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
                        long perTick = bytesPerSecond / 10 / record.length;
                        while (writing.get()) {
                            for (long i = 0; i < perTick; i++) {
                                producer.send(new ProducerRecord<>(TOPIC, record));
                            }
                            Thread.sleep(100);
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                },
                "inflow");
        t.setDaemon(true);
        t.start();
        return t;
    }

    private static int outOfSync() throws Exception {
        int n = 0;
        for (TopicPartitionInfo p : RecoveryScenario.describe(cluster.admin(), TOPIC)) {
            n += p.replicas().size() - p.isr().size();
        }
        return n;
    }
}
