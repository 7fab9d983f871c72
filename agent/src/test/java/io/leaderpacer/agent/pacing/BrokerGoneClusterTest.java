package io.leaderpacer.agent.pacing;

import io.leaderpacer.agent.RecoveryScenario;
import io.leaderpacer.agent.core.PacingReport;
import io.leaderpacer.agent.throttle.ThrottleConfigSnapshot;
import io.leaderpacer.embedded.EmbeddedKafkaCluster;
import io.leaderpacer.engine.config.CatchUpPacing;
import io.leaderpacer.engine.config.PacerConfig;
import org.apache.kafka.clients.admin.NewPartitionReassignment;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A broker that dies while pacing throttles its catch-up and is then removed from the cluster for good (unregistered,
 * its replicas moved to the others), on a real in-JVM cluster: pacing's rate on it can no longer be read or changed by
 * any client, since Kafka sends a broker's config to that broker. Pacing must neither hold on to it (a full read every
 * look for good, {@code pacer restore} and {@code pacer throttles} failing for ever) nor forget it (a broker that
 * later registers with the same id would run under it): it names it once, counts it as nothing left behind, and
 * restores it when a broker with that id registers.
 */
@Tag("cluster")
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class BrokerGoneClusterTest {

    private static final String TOPIC = "leaving";
    private static final int GONE = 2;
    private static final Set<Integer> ALL = Set.of(0, 1, 2);
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    private static EmbeddedKafkaCluster cluster;

    @BeforeAll
    static void startCluster() throws Exception {
        cluster = RecoveryScenario.pacedCluster();
        // Replication factor 2, every partition on broker 2: once it is gone, its replicas can move to 0 and 1.
        RecoveryScenario.createAssignedTopic(
                cluster, TOPIC, Map.of(0, List.of(GONE, 0), 1, List.of(GONE, 1), 2, List.of(0, GONE)));
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static CatchUpPacing pacing() {
        return PacerConfig.fromMap(Map.of(
                        "leader.imbalance.catch.up.pacing", "static",
                        "leader.imbalance.catch.up.pacing.rate.bytes", "100000",
                        "leader.imbalance.catch.up.pacing.min.rate.bytes", "100000",
                        "leader.imbalance.catch.up.pacing.unthrottled.lag.bytes", "0",
                        // Restarted within replica.lag.time.max.ms: this is about the throttle itself, set at once.
                        "leader.imbalance.catch.up.pacing.lag.time.max.ms", "0",
                        "leader.imbalance.catch.up.pacing.max.wait.ms", "0"))
                .pacing();
    }

    @Test
    void aBrokerUnregisteredMidPacing_isNotLeftBehind_norForgotten_andItsRateIsRestoredWhenItsIdRegistersAgain()
            throws Exception {
        Map<String, String> before = ThrottleConfigSnapshot.of(cluster.admin(), ALL);
        InMemoryLedgerStore store = new InMemoryLedgerStore();
        PacingLoop loop = PacingLoop.builder(cluster.admin(), Duration.ofSeconds(30), 200)
                .ledger(store)
                .build();
        CatchUpPacing config = pacing();
        cluster.stopBroker(GONE);
        // Looks until one sees it down, so that the cluster-default rate is in place when its fetchers start.
        await().atMost(TIMEOUT)
                .pollInterval(Duration.ofMillis(300))
                .until(() -> !loop.tick(config).brokers().isEmpty());
        RecoveryScenario.writeBacklog(cluster, TOPIC, 3, 6_000_000);
        cluster.startBroker(GONE);
        // Paced while up: its own follower rate is pacing's.
        await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(300)).until(() -> {
            assertThat(loop.tick(config).problem()).isEmpty();
            return ThrottleConfigSnapshot.of(cluster.admin(), ALL)
                    .containsKey("broker " + GONE + " follower.replication.throttled.rate");
        });

        // It dies mid-pacing, and the operator removes it for good: unregistered, its replicas moved away.
        cluster.killBroker(GONE);
        await().atMost(TIMEOUT).until(() -> cluster.isFenced(GONE));
        cluster.admin().unregisterBroker(GONE).all().get(30, TimeUnit.SECONDS);
        cluster.admin()
                .alterPartitionReassignments(Map.of(
                        new TopicPartition(TOPIC, 0), Optional.of(new NewPartitionReassignment(List.of(0, 1))),
                        new TopicPartition(TOPIC, 1), Optional.of(new NewPartitionReassignment(List.of(1, 0))),
                        new TopicPartition(TOPIC, 2), Optional.of(new NewPartitionReassignment(List.of(0, 1)))))
                .all()
                .get(30, TimeUnit.SECONDS);

        // Pacing names the rate it can no longer restore, once, and owns nothing else.
        StringBuilder named = new StringBuilder();
        await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(500)).until(() -> {
            PacingReport r = loop.tick(config);
            assertThat(r.problem()).isEmpty();
            r.notes().stream().filter(n -> n.contains("no longer registered")).forEach(named::append);
            return r.brokers().isEmpty()
                    && ThrottleConfigSnapshot.of(cluster.admin(), Set.of(0, 1)).equals(withoutBroker(before, GONE));
        });
        await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(500)).until(() -> {
            PacingReport r = loop.tick(config);
            r.notes().stream().filter(n -> n.contains("no longer registered")).forEach(named::append);
            return r.quiet();
        });
        assertThat(named.toString())
                .as("named once, with the rate and when it is restored")
                .contains("broker " + GONE + " is no longer registered: pacing's follower rate on it (97.7 KiB/s")
                .contains("it is restored when a broker with id " + GONE + " registers");
        // pacer restore's and pacer throttles' verdicts: nothing left that can be restored, nothing left behind.
        PacingReport restored = loop.restore();
        assertThat(restored.problem()).isEmpty();
        ThrottleInventory.Inventory inv = ThrottleInventory.read(cluster.admin(), store, Duration.ofSeconds(30));
        assertThat(inv.leftBehind()).as("pacer throttles: %s", inv.unseen()).isFalse();
        assertThat(inv.unseen()).anySatisfy(u -> assertThat(u).startsWith("broker " + GONE + " (not registered)"));

        // A broker with the same id registers: pacing's rate on it is restored at the next full look.
        cluster.startBroker(GONE);
        await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
            assertThat(loop.tick(config).problem()).isEmpty();
            assertThat(ThrottleConfigSnapshot.of(cluster.admin(), ALL)).isEqualTo(before);
        });
        assertThat(loop.ownsThrottles()).isFalse();
    }

    private static Map<String, String> withoutBroker(Map<String, String> configs, int broker) {
        Map<String, String> out = new TreeMap<>(configs);
        out.keySet().removeIf(k -> k.startsWith("broker " + broker + " "));
        return out;
    }
}
