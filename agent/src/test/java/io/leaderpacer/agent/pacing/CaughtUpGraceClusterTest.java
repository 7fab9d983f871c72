package io.leaderpacer.agent.pacing;

import io.leaderpacer.agent.RecoveryScenario;
import io.leaderpacer.agent.core.PacingReport;
import io.leaderpacer.agent.throttle.ThrottleConfigSnapshot;
import io.leaderpacer.embedded.EmbeddedKafkaCluster;
import io.leaderpacer.engine.config.CatchUpPacing;
import io.leaderpacer.engine.config.PacerConfig;
import io.leaderpacer.engine.pacing.BrokerPacing;
import io.leaderpacer.engine.pacing.PacingPhase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A broker restarted within its leaders' {@code replica.lag.time.max.ms} of going down (a rolling restart's SIGTERM)
 * on a real in-JVM cluster under {@code acks=all} load: its leaders still count it caught up and hold their high
 * watermark for it (KAFKA-15021), so pacing leaves it unthrottled until that time has passed since it went down; one
 * restarted after it is throttled at once. The trap itself is shown too: with pacing told to throttle at once
 * ({@code lag.time.max.ms=0}), writes to its partitions wait for each throttled fetch.
 */
@Tag("cluster")
@Tag("timing")
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class CaughtUpGraceClusterTest {

    private static final int BROKER = 2;
    private static final long LAG_TIME_MS = 10_000;
    private static final long MIB = 1L << 20;
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private static EmbeddedKafkaCluster cluster;
    private final List<String> topics = new ArrayList<>();
    private PacingLoop loop;

    @BeforeAll
    static void startCluster() {
        // replica.lag.time.max.ms of 10 s instead of Kafka's 30 s, so that "outside" is a restart 12 s later.
        cluster = EmbeddedKafkaCluster.builder()
                .brokers(3)
                .serverProperty("replica.lag.time.max.ms", Long.toString(LAG_TIME_MS))
                .serverProperty("replica.fetch.max.bytes", Long.toString(256 * 1024))
                .serverProperty("replica.fetch.response.max.bytes", Long.toString(MIB))
                .build()
                .start();
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @AfterEach
    void restoreAndDelete() throws Exception {
        if (!cluster.isRunning(BROKER)) {
            cluster.startBroker(BROKER);
        }
        if (loop != null) {
            loop.restore();
        }
        cluster.admin().deleteTopics(topics).all().get(30, TimeUnit.SECONDS);
    }

    private static CatchUpPacing pacing(String lagTime) {
        return PacerConfig.fromMap(Map.of(
                        "leader.imbalance.catch.up.pacing",
                        "static",
                        "leader.imbalance.catch.up.pacing.rate.bytes",
                        Long.toString(MIB),
                        "leader.imbalance.catch.up.pacing.min.rate.bytes",
                        Long.toString(MIB),
                        "leader.imbalance.catch.up.pacing.unthrottled.lag.bytes",
                        "0",
                        "leader.imbalance.catch.up.pacing.interval.ms",
                        "1000",
                        "leader.imbalance.catch.up.pacing.lag.time.max.ms",
                        lagTime))
                .pacing();
    }

    /** Four partitions led by brokers 0 and 1 in turn, each followed by broker 2. */
    private static Map<Integer, List<Integer>> assignment() {
        Map<Integer, List<Integer>> assignment = new TreeMap<>();
        for (int p = 0; p < 4; p++) {
            assignment.put(p, p % 2 == 0 ? List.of(0, 1, BROKER) : List.of(1, 0, BROKER));
        }
        return assignment;
    }

    /**
     * After 2 s of load, stops broker 2 and looks until pacing sees it down.
     *
     * @return when it was stopped, on {@link System#nanoTime()}
     */
    private long stopAndAwaitSeenDown(CatchUpPacing config) throws Exception {
        Thread.sleep(2000);
        cluster.stopBroker(BROKER);
        long down = System.nanoTime();
        await().atMost(TIMEOUT)
                .pollInterval(Duration.ofMillis(200))
                .until(() -> !loop.tick(config).brokers().isEmpty());
        return down;
    }

    /** What one restart showed: per look after the start, broker 2's phase and the slowest send. */
    private record Look(long sinceDownMs, PacingPhase phase, boolean throttled, long slowestMs) {}

    /**
     * Stops the broker, restarts it after {@code downMs} under 4 MiB/s of writes to partitions it follows, and looks
     * every second for {@code lookMs} after its start.
     */
    private List<Look> restart(String topic, CatchUpPacing config, long downMs, long lookMs) throws Exception {
        RecoveryScenario.createAssignedTopic(cluster, topic, assignment());
        topics.add(topic);
        loop = PacingLoop.builder(cluster.admin(), TIMEOUT, 200).build();
        List<Look> looks = new ArrayList<>();
        try (ProduceLoad load = ProduceLoad.start(cluster, topic, List.of(0, 1, 2, 3), 4 * MIB)) {
            long down = stopAndAwaitSeenDown(config);
            Thread.sleep(Math.max(0, downMs - (System.nanoTime() - down) / 1_000_000));
            // The writes meanwhile are its backlog: 4 MiB/s for the time it is down, more than a throttled second.
            cluster.startBroker(BROKER);
            load.resetSlowest();
            long started = System.nanoTime();
            while ((System.nanoTime() - started) / 1_000_000 < lookMs) {
                PacingReport r = loop.tick(config);
                assertThat(r.problem()).isEmpty();
                Optional<BrokerPacing> b =
                        r.brokers().stream().filter(x -> x.broker() == BROKER).findFirst();
                boolean throttled = ThrottleConfigSnapshot.of(cluster.admin(), Set.of(0, 1, BROKER)).keySet().stream()
                        .anyMatch(k -> k.startsWith("topic " + topic + " "));
                Thread.sleep(1000);
                looks.add(new Look(
                        (System.nanoTime() - down) / 1_000_000,
                        b.map(BrokerPacing::phase).orElse(null),
                        throttled,
                        load.resetSlowest()));
            }
            load.assertNoneFailed();
        }
        // The record of what each restart showed, for the reader of the build's output.
        System.out.printf(
                Locale.ROOT,
                "%s (%s, down %d ms): slowest send per second after the start %s ms; phases %s%n",
                topic,
                config.lagTimeMaxMs() < 0 ? "the leaders' lag time" : "lag time " + config.lagTimeMaxMs() + " ms",
                downMs,
                looks.stream().map(l -> Long.toString(l.slowestMs())).toList(),
                looks.stream().map(l -> String.valueOf(l.phase())).toList());
        return looks;
    }

    @Test
    void aBrokerBackWithinTheLeadersLagTime_isNotThrottled_untilItHasPassed_andWritesNeverWaitForIt() throws Exception {
        List<Look> looks = restart("inside", pacing("-1"), 3_000, 9_000);

        for (Look l : looks) {
            if (l.sinceDownMs() < LAG_TIME_MS) {
                assertThat(l.throttled()).as("within the lag time: %s", looks).isFalse();
                assertThat(l.phase()).as("within the lag time: %s", looks).isIn(PacingPhase.CAUGHT_UP_GRACE, null);
            }
        }
        assertThat(looks.stream().mapToLong(Look::slowestMs).max().orElse(0))
                .as("the slowest send of each second after the restart: %s", looks)
                .isLessThan(1000);
    }

    @Test
    void aBrokerBackAfterTheLeadersLagTime_isThrottledAtOnce() throws Exception {
        List<Look> looks = restart("outside", pacing("-1"), LAG_TIME_MS + 2_000, 4_000);

        assertThat(looks).as("throttled from the first looks after its start").anySatisfy(l -> {
            assertThat(l.phase()).isEqualTo(PacingPhase.PACED);
            assertThat(l.throttled()).isTrue();
        });
        assertThat(looks).noneSatisfy(l -> assertThat(l.phase()).isEqualTo(PacingPhase.CAUGHT_UP_GRACE));
    }

    @Test
    void theTrap_throttledAtOnceWithinTheLeadersLagTime_writesWaitForTheThrottledBroker() throws Exception {
        List<Look> looks = restart("trap", pacing("0"), 3_000, 6_000);

        assertThat(looks.stream().mapToLong(Look::slowestMs).max().orElse(0))
                .as("a write waited a throttled fetch: %s", looks)
                .isGreaterThanOrEqualTo(1000);
    }

    /** One look after the start: broker 2's phase, and which topics list it. */
    private record GraceLook(long sinceStartMs, PacingPhase phase, boolean backlogListed, boolean writtenListed) {}

    @Test
    void aBrokerDownWithinTheLeadersLagTime_itsBacklogWithoutWritesIsThrottledBeforeItsStart_theWrittenNever()
            throws Exception {
        RecoveryScenario.createAssignedTopic(cluster, "written", assignment());
        topics.add("written");
        RecoveryScenario.createAssignedTopic(cluster, "backlog", assignment());
        topics.add("backlog");
        CatchUpPacing config = pacing("-1");
        loop = PacingLoop.builder(cluster.admin(), TIMEOUT, 200).build();
        List<GraceLook> looks = new ArrayList<>();
        try (ProduceLoad load = ProduceLoad.start(cluster, "written", List.of(0, 1, 2, 3), MIB)) {
            long down = stopAndAwaitSeenDown(config);
            // A backlog written while it is down, then none: at 1 MiB/s it lasts far longer than the looks below.
            RecoveryScenario.writeBacklog(cluster, "backlog", 4, 16 * MIB);
            // Its leaders are read while it is down: once they show no growth, the backlog is throttled for its return.
            await().atMost(Duration.ofSeconds(5))
                    .pollInterval(Duration.ofMillis(300))
                    .until(() -> {
                        loop.tick(config);
                        return listed(Set.of(0, 1), "backlog");
                    });
            assertThat(listed(Set.of(0, 1), "written"))
                    .as("the written partitions, not throttled")
                    .isFalse();
            long downMs = (System.nanoTime() - down) / 1_000_000;
            assertThat(downMs)
                    .as("the test's premise: back within the lag time")
                    .isLessThan(LAG_TIME_MS - 3000);
            cluster.startBroker(BROKER);
            load.resetSlowest();
            long started = System.nanoTime();
            while ((System.nanoTime() - down) / 1_000_000 < LAG_TIME_MS - 1000) {
                PacingReport r = loop.tick(config);
                assertThat(r.problem()).isEmpty();
                Optional<BrokerPacing> b =
                        r.brokers().stream().filter(x -> x.broker() == BROKER).findFirst();
                looks.add(new GraceLook(
                        (System.nanoTime() - started) / 1_000_000,
                        b.map(BrokerPacing::phase).orElse(null),
                        listed(Set.of(0, 1, BROKER), "backlog"),
                        listed(Set.of(0, 1, BROKER), "written")));
                Thread.sleep(300);
            }
            assertThat(load.resetSlowest())
                    .as("the slowest send after the start: %s", looks)
                    .isLessThan(1000);
            load.assertNoneFailed();
        }
        System.out.printf(Locale.ROOT, "backlog within the lag time: %s%n", looks);

        assertThat(looks)
                .as("the backlog throttled through the grace: %s", looks)
                .allSatisfy(l -> {
                    if (l.phase() == PacingPhase.CAUGHT_UP_GRACE) {
                        assertThat(l.backlogListed()).isTrue();
                        assertThat(l.writtenListed()).isFalse();
                    }
                });
        assertThat(looks)
                .as("looks in the grace after the start")
                .anySatisfy(l -> assertThat(l.phase()).isEqualTo(PacingPhase.CAUGHT_UP_GRACE));
        loop.restore();
        assertThat(ThrottleConfigSnapshot.of(cluster.admin(), Set.of(0, 1, BROKER)))
                .as("nothing left after the restore")
                .isEmpty();
    }

    /** Whether a throttle list of {@code topic} is set, read from {@code brokers} (which must be up). */
    private static boolean listed(Set<Integer> brokers, String topic) throws Exception {
        return ThrottleConfigSnapshot.of(cluster.admin(), brokers).keySet().stream()
                .anyMatch(k -> k.startsWith("topic " + topic + " "));
    }
}
