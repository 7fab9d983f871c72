package io.leaderpacer.agent.pacing;

import io.leaderpacer.agent.RecoveryScenario;
import io.leaderpacer.agent.core.PacingReport;
import io.leaderpacer.agent.throttle.BrokerScope;
import io.leaderpacer.agent.throttle.ReplicationThrottles;
import io.leaderpacer.agent.throttle.ThrottleChange;
import io.leaderpacer.agent.throttle.ThrottleConfigSnapshot;
import io.leaderpacer.agent.throttle.ThrottleSide;
import io.leaderpacer.agent.throttle.ThrottledReplicas;
import io.leaderpacer.embedded.EmbeddedKafkaCluster;
import io.leaderpacer.engine.config.CatchUpPacing;
import io.leaderpacer.engine.config.PacerConfig;
import io.leaderpacer.engine.pacing.BrokerPacing;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Catch-up pacing on a real in-JVM 3-broker cluster under produce load, as a real cluster has while a broker catches
 * up: {@code acks=all} writes of several MiB/s into the recovering broker's partitions for the whole recovery.
 *
 * <p>Why apart from the other pacing tests: Kafka charges the bytes its in-sync followers fetch of a listed partition
 * to the same replication quota as the catch-up (KAFKA-NOTES note 17); on a quiet cluster there are none, and a rate
 * pacing sets is all the catch-up's. Under load it is not, unless pacing counts them. Each test says what the catch-up
 * fetched (measured from the broker's log sizes, apart from the agent) against what pacing says it allows, finishes
 * within a bound, and leaves every throttle config byte for byte as it was.
 */
@Tag("cluster")
@Tag("timing")
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class PacingUnderLoadClusterTest {

    private static final int BROKER = 2;
    private static final Set<Integer> ALL = Set.of(0, 1, 2);
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final long MIB = 1L << 20;
    /** The produce load on the recovering broker's partitions for the whole recovery. */
    private static final long LOAD = 5 * MIB;
    /** How long the broker is down: over the cluster's replica.lag.time.max.ms (see the cluster's settings). */
    private static final long DOWN_MS = 12_000;
    /** The longest a paced catch-up of these tests may take: several times what the rate allows. */
    private static final Duration FINISHES_WITHIN = Duration.ofSeconds(150);
    /**
     * What the catch-up fetched against what the rates in force allowed, summed over the seconds measured, within this
     * share either way. Kafka's quota holds an average and a fetch brings up to 1 MiB at once, so single seconds vary
     * (0.1 to 1.6 of the rate here); their sum does not miss by this much unless the rate is not the catch-up's.
     */
    private static final double FETCHED_WITHIN = 0.35;

    private static EmbeddedKafkaCluster cluster;
    private static ReplicationThrottles throttles;
    /** The throttle configs before the test, and with someone else's that the test set (what pacing must leave). */
    private Map<String, String> before;

    private Map<String, String> withTheirs;
    /** Removes someone else's throttles the test set, once pacing has restored its own. */
    private ThrottleChange theirsRemoved;

    private final List<String> topics = new ArrayList<>();
    private PacingLoop loop;

    @BeforeAll
    static void startCluster() {
        // Three settings make what the catch-up fetches each second the rate in force, so that the two can be
        // compared second by second; none changes how Kafka counts in-sync bytes on the quota. Each was measured here:
        // - a quota window of 2 samples of 1 s: Kafka's default (11) lets about ten seconds of the rate through at once
        //   after a quiet second, then nothing until the window rolls (46 MB in one second under 8 MiB/s of leader
        //   rates, then 0 for 8 s);
        // - replica.fetch.backoff.ms 100: a follower whose every partition is throttled waits this long before it
        //   fetches again (1 s by default), which under a 2-second window halved what it fetched (4.8 MB/s under a
        //   10 MiB/s rate, in bursts every other second);
        // - replica.lag.time.max.ms 10 s, under the 12 s the broker is down: a leader still counts a follower back
        //   within that time of its last fetch as caught up, out of the ISR or not, and holds its high watermark for
        //   it (Partition.maybeIncrementLeaderHW, KAFKA-15021), so under a throttle the acks=all writes stalled every
        //   other second and the inflow with them. That is a trap of its own for restarts within 30 s (Kafka's
        //   default), not what these tests are about.
        // Fetches of at most 1 MiB a response (not Kafka's 10 MiB: a second's worth at the rates here, so that the
        // catch-up moves each second) and 1 MiB a partition (Kafka's default). Kafka counts a fetched slice whole on
        // the quota, a record batch cut at its end included, and the follower appends only whole batches and fetches
        // the cut one again: with 256 KiB a partition and the 64 KiB batches these tests write, the catch-up fetched
        // 14-35 % less than the rate in force (docs/evidence/partial-batch-probe/NOTES.md).
        cluster = EmbeddedKafkaCluster.builder()
                .brokers(3)
                .serverProperty("replica.fetch.max.bytes", Long.toString(MIB))
                .serverProperty("replica.fetch.response.max.bytes", Long.toString(MIB))
                .serverProperty("replication.quota.window.num", "2")
                .serverProperty("replica.fetch.backoff.ms", "100")
                .serverProperty("replica.lag.time.max.ms", "10000")
                .build()
                .start();
        throttles = new ReplicationThrottles(cluster.admin(), TIMEOUT);
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @BeforeEach
    void recordTheThrottlesBefore() throws Exception {
        before = ThrottleConfigSnapshot.of(cluster.admin(), ALL);
        withTheirs = before;
    }

    /**
     * Pacing's own restore leaves exactly what was there with someone else's throttles; then theirs are removed and the
     * test's topics deleted, so that the next test's broker catches up on its own topics only.
     */
    @AfterEach
    void everyThrottleIsAsBefore() throws Exception {
        if (!cluster.isRunning(BROKER)) {
            cluster.startBroker(BROKER);
        }
        if (loop != null) {
            loop.restore();
            loop.closeCanary();
        }
        await().atMost(TIMEOUT)
                .pollInterval(Duration.ofMillis(300))
                .untilAsserted(() -> assertThat(ThrottleConfigSnapshot.of(cluster.admin(), ALL))
                        .isEqualTo(withTheirs));
        if (theirsRemoved != null) {
            theirsRemoved.apply();
        }
        cluster.admin().deleteTopics(topics).all().get(30, TimeUnit.SECONDS);
        await().atMost(TIMEOUT)
                .pollInterval(Duration.ofMillis(300))
                .untilAsserted(() -> assertThat(ThrottleConfigSnapshot.of(cluster.admin(), ALL))
                        .isEqualTo(before));
    }

    /** A topic of the test's, deleted after it. */
    private String topic(String name, Map<Integer, List<Integer>> assignment) throws Exception {
        RecoveryScenario.createAssignedTopic(cluster, name, assignment);
        topics.add(name);
        return name;
    }

    /**
     * Someone else's throttles, set before the recovery and removed after the test; returns once every broker shows
     * them.
     */
    private void theirs(ThrottleChange set, ThrottleChange remove, String key, String value) throws Exception {
        set.apply();
        theirsRemoved = remove;
        withTheirs = await().atMost(TIMEOUT)
                .pollInterval(Duration.ofMillis(100))
                .until(() -> ThrottleConfigSnapshot.of(cluster.admin(), ALL), m -> value.equals(m.get(key)));
    }

    private static CatchUpPacing pacing(String mode, long rate, boolean preferredFirst) {
        Map<String, String> m = new HashMap<>(Map.of(
                "leader.imbalance.catch.up.pacing",
                mode,
                "leader.imbalance.catch.up.pacing.rate.bytes",
                Long.toString(rate),
                "leader.imbalance.catch.up.pacing.min.rate.bytes",
                Long.toString(MIB),
                "leader.imbalance.catch.up.pacing.max.rate.bytes",
                Long.toString(64 * MIB),
                "leader.imbalance.catch.up.pacing.unthrottled.lag.bytes",
                "0",
                "leader.imbalance.catch.up.pacing.interval.ms",
                "1000",
                "leader.imbalance.catch.up.pacing.max.wait.ms",
                "0",
                "leader.imbalance.catch.up.pacing.preferred.first",
                Boolean.toString(preferredFirst)));
        return PacerConfig.fromMap(m).pacing();
    }

    private PacingLoop loop() {
        loop = PacingLoop.builder(cluster.admin(), TIMEOUT, 200)
                .canary(b -> OptionalDouble.of(1.0))
                .build();
        return loop;
    }

    /** Partitions whose preferred leader is the recovering broker, led by 0 and 1 while it is away. */
    private static Map<Integer, List<Integer>> preferredByTheBroker(int partitions) {
        Map<Integer, List<Integer>> a = new TreeMap<>();
        for (int p = 0; p < partitions; p++) {
            a.put(p, p % 2 == 0 ? List.of(BROKER, 0, 1) : List.of(BROKER, 1, 0));
        }
        return a;
    }

    /** Partitions whose preferred leaders are 0 and 1, each with a replica on the recovering broker. */
    private static Map<Integer, List<Integer>> ledByOthers(int partitions) {
        Map<Integer, List<Integer>> a = new TreeMap<>();
        for (int p = 0; p < partitions; p++) {
            a.put(p, p % 2 == 0 ? List.of(0, 1, BROKER) : List.of(1, 0, BROKER));
        }
        return a;
    }

    @Test
    void preferredFirst_underProduceLoad_finishes_andTheCatchUpFetchesTheRatePacingAllows() throws Exception {
        String topic = topic("pf-loaded", preferredByTheBroker(4));
        CatchUpPacing config = pacing("static", 8 * MIB, true);
        try (ProduceLoad load = ProduceLoad.start(cluster, topic, List.of(0, 1, 2, 3), LOAD)) {
            Recovery r = recover(topic, config, DOWN_MS, null);
            r.assertFinished();
            r.assertFetchedNearTheRateDecided();
            load.assertNoneFailed();
        }
    }

    @Test
    void followerSide_static_underProduceLoad_finishes_andTheCatchUpFetchesTheRatePacingAllows() throws Exception {
        String topic = topic("static-loaded", ledByOthers(6));
        CatchUpPacing config = pacing("static", 10 * MIB, false);
        try (ProduceLoad load = ProduceLoad.start(cluster, topic, List.of(0, 1, 2, 3, 4, 5), LOAD)) {
            Recovery r = recover(topic, config, DOWN_MS, null);
            r.assertFinished();
            r.assertFetchedNearTheRateDecided();
            load.assertNoneFailed();
        }
    }

    @Test
    void followerSide_adaptive_underProduceLoad_finishes_andTheCatchUpFetchesTheRatePacingAllows() throws Exception {
        String topic = topic("adaptive-follower-loaded", ledByOthers(6));
        CatchUpPacing config = pacing("adaptive", 8 * MIB, false);
        try (ProduceLoad load = ProduceLoad.start(cluster, topic, List.of(0, 1, 2, 3, 4, 5), LOAD)) {
            Recovery r = recover(topic, config, DOWN_MS, null);
            r.assertFinished();
            r.assertFetchedNearTheRateDecided();
            load.assertNoneFailed();
        }
    }

    @Test
    void adaptive_preferredFirst_underProduceLoad_finishes_andTheCatchUpFetchesTheRatePacingAllows() throws Exception {
        String topic = topic("adaptive-loaded", preferredByTheBroker(4));
        CatchUpPacing config = pacing("adaptive", 8 * MIB, true);
        try (ProduceLoad load = ProduceLoad.start(cluster, topic, List.of(0, 1, 2, 3), LOAD)) {
            Recovery r = recover(topic, config, DOWN_MS, null);
            r.assertFinished();
            r.assertFetchedNearTheRateDecided();
            load.assertNoneFailed();
        }
    }

    @Test
    void someoneElsesStar_onATopicTheBrokerIsPartlyInSyncFor_itsInSyncBytesAreCounted_andTheCatchUpGetsItsRate()
            throws Exception {
        String topic = topic("star-loaded", ledByOthers(6));
        // An operator's * on the topic (as pacing's own on a topic too wide for a list): it covers the broker's
        // in-sync replicas of the topic too, and Kafka charges their bytes to its follower quota.
        theirs(
                throttles.change().setReplicas(ThrottleSide.FOLLOWER, topic, ThrottledReplicas.ALL),
                throttles.change().clearReplicas(ThrottleSide.FOLLOWER, topic),
                "topic " + topic + " follower.replication.throttled.replicas",
                "*");
        CatchUpPacing config = pacing("static", 3 * MIB, false);
        loop();
        cluster.stopBroker(BROKER);
        awaitSeenDown(config);
        // The backlog on partitions 3 to 5 only: 0 to 2 have none and rejoin their ISR at once. Twice what the first
        // look can see fetched at once: a restarted broker's quota starts empty, and in a clean-clone run the first
        // second fetched 29 MB of a 45 MiB backlog, leaving 3 seconds under the rate, too few to measure.
        long stopped = System.nanoTime();
        RecoveryScenario.writeInto(cluster, topic, List.of(3, 4, 5), 90 * MIB);
        looksWhileDown(config, stopped + DOWN_MS * 1_000_000);
        cluster.startBroker(BROKER);
        await().atMost(TIMEOUT).until(() -> {
            loop.tick(config);
            return new FetchMeter(cluster.admin(), BROKER, topic).sample().equals(Set.of(3, 4, 5));
        });
        // Writes into the partitions it is in sync for: their bytes count towards its follower quota.
        try (ProduceLoad load = ProduceLoad.start(cluster, topic, List.of(0, 1, 2), LOAD)) {
            Recovery r = follow(topic, config, Optional.empty());
            r.assertFinished();
            r.assertFetchedNearTheRateDecided();
            load.assertNoneFailed();
        }
    }

    @Test
    void someoneElsesFollowerRateUnderTheInflow_pacingSaysSo_andTheCatchUpStillFinishes() throws Exception {
        String topic = topic("foreign-follower-rate", ledByOthers(4));
        String theirs = topic("theirs-follower", Map.of(0, List.of(0, 1, BROKER)));
        theirs(
                throttles
                        .change()
                        .setRate(ThrottleSide.FOLLOWER, BrokerScope.broker(BROKER), MIB)
                        .setReplicas(ThrottleSide.FOLLOWER, theirs, ThrottledReplicas.parse("0:" + BROKER)),
                throttles
                        .change()
                        .removeRate(ThrottleSide.FOLLOWER, BrokerScope.broker(BROKER))
                        .clearReplicas(ThrottleSide.FOLLOWER, theirs),
                "broker " + BROKER + " follower.replication.throttled.rate",
                Long.toString(MIB));
        CatchUpPacing config = pacing("static", 8 * MIB, false);
        try (ProduceLoad load = ProduceLoad.start(cluster, topic, List.of(0, 1, 2, 3), 3 * MIB)) {
            Recovery r = recover(topic, config, DOWN_MS, null);
            assertThat(r.reasons)
                    .as("pacing names the rate that holds the catch-up, and that it is not its own")
                    .anyMatch(s -> s.contains("someone else") && s.contains("1.0 MiB/s"));
            r.assertFinished();
            load.assertNoneFailed();
        }
    }

    @Test
    void someoneElsesClusterDefaultRate_isNotOverriddenOnTheBrokerOnceItIsUp_andPacingSaysSo() throws Exception {
        String topic = topic("foreign-default", ledByOthers(4));
        String theirs = topic("theirs-default", Map.of(0, List.of(0, 1, BROKER)));
        theirs(
                throttles
                        .change()
                        .setRate(ThrottleSide.FOLLOWER, BrokerScope.clusterDefault(), 6 * MIB)
                        .setReplicas(ThrottleSide.FOLLOWER, theirs, ThrottledReplicas.parse("0:" + BROKER)),
                throttles
                        .change()
                        .removeRate(ThrottleSide.FOLLOWER, BrokerScope.clusterDefault())
                        .clearReplicas(ThrottleSide.FOLLOWER, theirs),
                "cluster default follower.replication.throttled.rate",
                Long.toString(6 * MIB));
        CatchUpPacing config = pacing("static", 3 * MIB, false);
        try (ProduceLoad load = ProduceLoad.start(cluster, topic, List.of(0, 1, 2, 3), MIB)) {
            Recovery r = recover(
                    topic,
                    config,
                    DOWN_MS,
                    s -> !s.containsKey("broker " + BROKER + " follower.replication.throttled.rate"));
            assertThat(r.notes)
                    .as("pacing says whose rate is in force on the broker")
                    .anyMatch(n -> n.contains("cluster-default follower rate") && n.contains("someone else"));
            r.assertFinished();
            load.assertNoneFailed();
        }
    }

    @Test
    void preferredFirst_withSomeoneElsesLeaderListOnTheSameLeader_neverThrottlesTheirList_andFetchesTheRate()
            throws Exception {
        String topic = topic("pf-shared-leader", preferredByTheBroker(4));
        String theirs = topic("theirs-leader", Map.of(0, List.of(0, 1, BROKER)));
        // A reassignment's leader entry naming broker 0, with no leader rate: theirs is not throttled, and a rate
        // pacing set on broker 0 for its own entries would throttle it.
        theirs(
                throttles.change().setReplicas(ThrottleSide.LEADER, theirs, ThrottledReplicas.parse("0:0")),
                throttles.change().clearReplicas(ThrottleSide.LEADER, theirs),
                "topic " + theirs + " leader.replication.throttled.replicas",
                "0:0");
        CatchUpPacing config = pacing("static", 8 * MIB, true);
        try (ProduceLoad load = ProduceLoad.start(cluster, topic, List.of(0, 1, 2, 3), LOAD)) {
            Recovery r =
                    recover(topic, config, DOWN_MS, s -> !s.containsKey("broker 0 leader.replication.throttled.rate"));
            assertThat(r.notes)
                    .as("pacing says why broker 0 leads its preferred replicas on the follower side")
                    .anyMatch(n -> n.contains("broker 0") && n.contains("someone else"));
            r.assertFinished();
            // Its preferred replicas led by broker 0 go first on the follower side, with their share of the rate.
            r.assertFetchedNearTheRateDecided();
            load.assertNoneFailed();
        }
    }

    /**
     * Stops the broker for {@code downMs} while the load writes its backlog, paces every second while it is down, starts it,
     * and follows the recovery ({@link #follow}).
     *
     * @param always a check of the throttle configs at every look (null: none)
     */
    private Recovery recover(String topic, CatchUpPacing config, long downMs, Predicate<Map<String, String>> always)
            throws Exception {
        if (loop == null) {
            loop();
        }
        cluster.stopBroker(BROKER);
        long stopped = System.nanoTime();
        awaitSeenDown(config);
        looksWhileDown(config, stopped + downMs * 1_000_000);
        cluster.startBroker(BROKER);
        return follow(topic, config, Optional.ofNullable(always));
    }

    /**
     * Looks every second while the broker is down, as the agent does, until {@code untilNanos}: once its leaders no
     * longer count it caught up (the grace), pacing sets the follower rate the broker meets at its first fetch.
     */
    private void looksWhileDown(CatchUpPacing config, long untilNanos) throws InterruptedException {
        while (System.nanoTime() < untilNanos) {
            assertThat(loop.tick(config).problem()).isEmpty();
            Thread.sleep(Math.max(0, Math.min(1000, (untilNanos - System.nanoTime()) / 1_000_000)));
        }
    }

    /** Looks until one sees the broker down: the broker the agent asks may learn of the stop a moment late. */
    private void awaitSeenDown(CatchUpPacing config) {
        await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(300)).until(() -> {
            PacingReport r = loop.tick(config);
            assertThat(r.problem()).isEmpty();
            return r.brokers().stream().anyMatch(b -> b.broker() == BROKER);
        });
    }

    /** Looks every second until the broker is in every ISR of the topic and pacing paces no broker. */
    private Recovery follow(String topic, CatchUpPacing config, Optional<Predicate<Map<String, String>>> always)
            throws Exception {
        Recovery r = new Recovery(new FetchMeter(cluster.admin(), BROKER, topic));
        long started = System.nanoTime();
        long deadline = started + FINISHES_WITHIN.toNanos();
        while (System.nanoTime() < deadline) {
            PacingReport report = loop.tick(config);
            assertThat(report.problem()).as("look %d", r.looks).isEmpty();
            r.looks++;
            r.notes.addAll(report.notes());
            Optional<BrokerPacing> b =
                    report.brokers().stream().filter(x -> x.broker() == BROKER).findFirst();
            b.ifPresent(x -> r.reasons.add(x.reason()));
            Optional<Long> decided = b.flatMap(
                    x -> x.rateBytes().isPresent() ? Optional.of(x.rateBytes().getAsLong()) : Optional.empty());
            decided.ifPresent(r.decided::add);
            Map<String, String> configs = ThrottleConfigSnapshot.of(cluster.admin(), Set.of(0, 1));
            always.ifPresent(check -> assertThat(check.test(configs))
                    .as("at look %d the throttle configs were %s", r.looks, configs)
                    .isTrue());
            int measured = r.meter.rates().size();
            Set<Integer> outOfSync = r.meter.sample();
            r.pairWithTheRateInForce(measured, decided);
            r.trace.add(String.format(
                    Locale.ROOT,
                    "%d (+%d ms): out %s behind %s decided %s size %d fetched %s",
                    r.looks,
                    (System.nanoTime() - started) / 1_000_000,
                    outOfSync,
                    b.map(x -> x.progress().bytesBehind().toString()).orElse("-"),
                    b.map(x -> x.rateBytes().toString()).orElse("-"),
                    r.meter.lastTotal(),
                    r.meter.rates().isEmpty()
                            ? "-"
                            : String.format(
                                    "%.0f", r.meter.rates().get(r.meter.rates().size() - 1))));
            if (outOfSync.isEmpty() && report.brokers().isEmpty()) {
                r.finished = true;
                // The record of what each run measured, for the reader of the build's output.
                System.out.printf(
                        Locale.ROOT,
                        "%s: back in every ISR after %d looks; fetched, median per second from the 4th: %.2f MiB/s;"
                                + " decided, median: %.2f MiB/s; fetched over the rates in force from the 4th"
                                + " second: %.2f%n",
                        topic,
                        r.looks,
                        r.meter.median(3) / MIB,
                        r.decided.isEmpty()
                                ? 0
                                : r.decided.stream().sorted().toList().get(r.decided.size() / 2) / (double) MIB,
                        r.share(3));
                return r;
            }
            Thread.sleep(1000);
        }
        return r;
    }

    /** What a test saw of one recovery. */
    private static final class Recovery {
        final FetchMeter meter;
        final List<Long> decided = new ArrayList<>();
        final List<String> reasons = new ArrayList<>();
        final List<String> notes = new ArrayList<>();
        final List<String> trace = new ArrayList<>();
        /** Each second measured, what the catch-up fetched (bytes per second). */
        final List<Double> fetchedEachSecond = new ArrayList<>();
        /** For each of {@link #fetchedEachSecond}, the rate pacing had decided at the look before: in force in it. */
        final List<Long> inForceEachSecond = new ArrayList<>();
        /** The rate pacing decided at the last look: in force until the next one writes its own. */
        private Optional<Long> inForce = Optional.empty();

        int looks;
        boolean finished;

        Recovery(FetchMeter meter) {
            this.meter = meter;
        }

        /**
         * Pairs the second the meter has just measured, if it measured one, with the rate decided at the look before:
         * the rate Kafka enforced over that second (a look writes its rate just before the meter reads). The rate a
         * look decides is then the one in force for the next second.
         */
        void pairWithTheRateInForce(int measuredBefore, Optional<Long> decidedNow) {
            List<Double> rates = meter.rates();
            if (rates.size() > measuredBefore && inForce.isPresent()) {
                fetchedEachSecond.add(rates.get(rates.size() - 1));
                inForceEachSecond.add(inForce.get());
            }
            inForce = decidedNow;
        }

        /**
         * What the catch-up fetched over what the rates in force allowed, summed over the seconds measured after the
         * first {@code skip}; NaN when there are none. A sum, not a median of single seconds: Kafka's quota holds an
         * average, so a throttled catch-up comes in bursts and holds second by second (0.1 to 1.6 of the rate on this
         * rig), and the median of the few seconds a catch-up lasts moves with where they fall.
         */
        double share(int skip) {
            double fetched = 0;
            double allowed = 0;
            for (int i = skip; i < fetchedEachSecond.size(); i++) {
                fetched += fetchedEachSecond.get(i);
                allowed += inForceEachSecond.get(i);
            }
            return allowed == 0 ? Double.NaN : fetched / allowed;
        }

        /** Each second's fetched bytes over the rate in force, for a failure's message. */
        List<String> shares() {
            List<String> out = new ArrayList<>();
            for (int i = 0; i < fetchedEachSecond.size(); i++) {
                out.add(String.format(Locale.ROOT, "%.2f", fetchedEachSecond.get(i) / inForceEachSecond.get(i)));
            }
            return out;
        }

        void assertFinished() {
            assertThat(finished)
                    .as(
                            "back in every ISR and no longer paced within %s; fetched per second %s; last reasons %s",
                            FINISHES_WITHIN,
                            meter.rates(),
                            reasons.subList(Math.max(0, reasons.size() - 3), reasons.size()))
                    .isTrue();
        }

        /**
         * What the catch-up fetched over what the rates in force allowed, past the first few seconds (the broker
         * starting, the quota's first fetch), within {@link #FETCHED_WITHIN} of 1. Each second against the rate in
         * force in it, not against the median rate: an adaptive rate moves during the catch-up.
         */
        void assertFetchedNearTheRateDecided() {
            assertThat(fetchedEachSecond)
                    .as("seconds measured under a rate decided; per look %s", trace)
                    .hasSizeGreaterThan(3);
            assertThat(share(3))
                    .as("fetched over the rates in force; each second %s; per look %s", shares(), trace)
                    .isBetween(1 - FETCHED_WITHIN, 1 + FETCHED_WITHIN);
        }
    }

    private static void awaitValue(String key, String value) {
        await().atMost(TIMEOUT)
                .pollInterval(Duration.ofMillis(100))
                .untilAsserted(() -> assertThat(ThrottleConfigSnapshot.of(cluster.admin(), ALL))
                        .containsEntry(key, value));
    }
}
