package io.leaderpacer.agent.coordination;

import com.fasterxml.jackson.databind.JsonNode;
import io.leaderpacer.agent.RecoveryScenario;
import io.leaderpacer.agent.throttle.BrokerScope;
import io.leaderpacer.agent.throttle.ReplicationThrottles;
import io.leaderpacer.agent.throttle.ThrottleConfigSnapshot;
import io.leaderpacer.agent.throttle.ThrottleSide;
import io.leaderpacer.agent.throttle.ThrottledReplicas;
import io.leaderpacer.embedded.EmbeddedKafkaCluster;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Real {@code pacer run} processes (child JVMs) with catch-up pacing on, on an in-JVM 3-broker cluster where someone
 * else's reassignment throttle is in place: the active instance is killed with SIGKILL while it paces broker 2's
 * catch-up. The standby takes over, goes on pacing from the ledger its predecessor left in the state topic, and once
 * broker 2 is back in every ISR every throttle config, pacing's and the other's, is byte for byte what it was before.
 */
@Tag("cluster")
@Timeout(value = 6, unit = TimeUnit.MINUTES)
class PacingTakeoverProcessTest {

    private static final Duration WAIT = Duration.ofSeconds(120);
    private static final long SESSION_MS = 6000;
    private static final String TOPIC = "paced";
    private static final int PARTITIONS = 12;
    /** A rate that spreads the catch-up of the backlog below over tens of seconds. */
    private static final long RATE = 200_000;

    private EmbeddedKafkaCluster cluster;
    private Path dir;

    @BeforeEach
    void startCluster() throws Exception {
        dir = Files.createDirectories(Path.of("target", "agent-processes"));
        cluster = RecoveryScenario.pacedCluster();
        cluster.createTopic(TOPIC, PARTITIONS, 3);
        cluster.createTopic("reassigned", 3, 3);
        // Someone else's reassignment throttle, as kafka-reassign-partitions --throttle leaves it, written as an
        // operator would (with a space): a leader and a follower rate on brokers 0 and 1, lists on another topic.
        ReplicationThrottles throttles = new ReplicationThrottles(cluster.admin(), Duration.ofSeconds(30));
        throttles
                .change()
                .setRate(ThrottleSide.LEADER, BrokerScope.broker(0), 7_000_000)
                .setRate(ThrottleSide.FOLLOWER, BrokerScope.broker(1), 7_000_000)
                .setReplicas(ThrottleSide.LEADER, "reassigned", ThrottledReplicas.parse("0:0,1:1"))
                .setReplicas(ThrottleSide.FOLLOWER, "reassigned", ThrottledReplicas.parse("0:1"))
                .apply();
    }

    @AfterEach
    void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"static", "adaptive"})
    void activeKilledWhilePacing_standbyGoesOnPacing_andEveryThrottleIsExactlyAsBefore(String mode) throws Exception {
        Map<String, String> before = awaitSettled(Set.of(0, 1, 2));
        Map<String, String> settings = settings(mode);

        try (AgentProcess a = AgentProcess.start("pace-" + mode + "-a", dir, settings)) {
            await().atMost(WAIT).until(() -> "ACTIVE".equals(a.state()));
            try (AgentProcess b = AgentProcess.start("pace-" + mode + "-b", dir, settings)) {
                await().atMost(WAIT).until(() -> "STANDBY".equals(b.state()));
                // The agents' state topic exists (replicated on all three brokers) before broker 2 goes down.
                cluster.stopBroker(2);
                RecoveryScenario.writeBacklog(cluster, TOPIC, PARTITIONS, 12_000_000);
                await().atMost(WAIT).until(() -> pacedRate(a.status()) > 0);
                cluster.startBroker(2);
                // Mid-pacing: broker 2 is up, has its own rate, and is still out of some ISRs.
                await().atMost(WAIT)
                        .pollInterval(Duration.ofMillis(300))
                        .until(() -> ThrottleConfigSnapshot.of(cluster.admin(), Set.of(0, 1, 2))
                                        .containsKey("broker 2 follower.replication.throttled.rate")
                                && RecoveryScenario.outOfSync(cluster.admin(), TOPIC, 2) > 0);
                a.kill();

                await().atMost(WAIT).until(() -> "ACTIVE".equals(b.state()));
                // The successor paces broker 2 while it is still out of sync (the catch-up takes tens of seconds).
                await().atMost(WAIT)
                        .pollInterval(Duration.ofMillis(300))
                        .until(() -> pacedRate(b.status()) > 0
                                || RecoveryScenario.outOfSync(cluster.admin(), TOPIC, 2) == 0);
                assertThat(RecoveryScenario.outOfSync(cluster.admin(), TOPIC, 2))
                        .as("still catching up when the successor paced it")
                        .isPositive();
                assertThat(b.status().path("pacing").path("problem").isMissingNode()
                                || b.status().path("pacing").path("problem").isNull())
                        .isTrue();

                await().atMost(WAIT)
                        .pollInterval(Duration.ofMillis(500))
                        .until(() -> RecoveryScenario.outOfSync(cluster.admin(), TOPIC, 2) == 0);
                await().atMost(Duration.ofSeconds(45))
                        .pollInterval(Duration.ofMillis(500))
                        .untilAsserted(() -> assertThat(ThrottleConfigSnapshot.of(cluster.admin(), Set.of(0, 1, 2)))
                                .isEqualTo(before));
                assertThat(b.log()).contains("catch-up pacing:");
            }
        }
        assertThat(ThrottleConfigSnapshot.of(cluster.admin(), Set.of(0, 1, 2))).isEqualTo(before);
    }

    /** The foreign throttle as every broker reports it, once the brokers agree. */
    private Map<String, String> awaitSettled(Set<Integer> brokers) throws Exception {
        // The reading that showed all four: a second one may ask a broker that has not caught up yet.
        return await().atMost(Duration.ofSeconds(30))
                .until(() -> ThrottleConfigSnapshot.of(cluster.admin(), brokers), m -> m.size() == 4);
    }

    /** The follower rate the agent's last pacing look set for broker 2, 0 when none. */
    private static long pacedRate(JsonNode status) {
        if (status == null) {
            return 0;
        }
        for (JsonNode b : status.path("pacing").path("brokers")) {
            if (b.path("broker").asInt() == 2 && b.path("rateBytesPerSecond").isNumber()) {
                return b.path("rateBytesPerSecond").asLong();
            }
        }
        return 0;
    }

    private Map<String, String> settings(String mode) {
        Map<String, String> s = new HashMap<>();
        s.put("bootstrap.servers", cluster.bootstrapServers());
        s.put("pacer.group.id", "pace-" + mode);
        s.put("pacer.session.timeout.ms", Long.toString(SESSION_MS));
        s.put("pacer.request.timeout.ms", "10000");
        s.put("leader.imbalance.check.interval.seconds", "2");
        s.put("leader.imbalance.catch.up.pacing", mode);
        s.put("leader.imbalance.catch.up.pacing.rate.bytes", Long.toString(RATE));
        s.put("leader.imbalance.catch.up.pacing.min.rate.bytes", Long.toString(RATE));
        s.put("leader.imbalance.catch.up.pacing.max.rate.bytes", Long.toString(RATE * 3));
        s.put("leader.imbalance.catch.up.pacing.interval.ms", "1000");
        s.put("leader.imbalance.catch.up.pacing.unthrottled.lag.bytes", "0");
        // Restarted within replica.lag.time.max.ms: these tests are about the throttle itself, set at once.
        s.put("leader.imbalance.catch.up.pacing.lag.time.max.ms", "0");
        return s;
    }
}
