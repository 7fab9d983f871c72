package io.leaderpacer.agent.throttle;

import io.leaderpacer.agent.RecoveryScenario;
import io.leaderpacer.agent.throttle.ThrottledReplicas.Replica;
import io.leaderpacer.embedded.EmbeddedKafkaCluster;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The throttle settings against Kafka's real brokers: one 3-broker in-JVM cluster shared by the class. */
@Tag("cluster")
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class ReplicationThrottlesClusterTest {

    private static final Duration WAIT = Duration.ofSeconds(60);

    private static EmbeddedKafkaCluster cluster;
    private static ReplicationThrottles throttles;

    @BeforeAll
    static void startCluster() {
        cluster = EmbeddedKafkaCluster.builder().brokers(3).build().start();
        throttles = new ReplicationThrottles(cluster.admin(), Duration.ofSeconds(30));
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void followerThrottle_isSetOnBrokerAndTopicAndCleared() throws Exception {
        cluster.createTopic("throttled", 3, 3);
        RecoveryScenario.setFollowerThrottle(cluster, 1, 1_000_000, "throttled");
        ConfigResource broker = new ConfigResource(ConfigResource.Type.BROKER, "1");
        ConfigResource topic = new ConfigResource(ConfigResource.Type.TOPIC, "throttled");
        // A topic's configs are described by any broker, each once the metadata reaches it: read until this one has it.
        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(config(broker, "follower.replication.throttled.rate").map(ConfigEntry::value))
                    .contains("1000000");
            assertThat(config(topic, "follower.replication.throttled.replicas").map(ConfigEntry::value))
                    .contains("*");
        });

        RecoveryScenario.clearFollowerThrottle(cluster, 1, "throttled");
        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(config(topic, "follower.replication.throttled.replicas").map(ConfigEntry::value))
                    .contains("");
            assertThat(config(broker, "follower.replication.throttled.rate")).isEmpty();
        });
    }

    @Test
    void leaderRatesPerBrokerAndTopicList_inOneRequest_areReportedThenRemoved() throws Exception {
        cluster.createTopic("leader-side", 3, 3);
        List<BrokerScope> leaders = List.of(BrokerScope.broker(0), BrokerScope.broker(1));
        throttles
                .change()
                .setRate(ThrottleSide.LEADER, leaders.get(0), 400_000)
                .setRate(ThrottleSide.LEADER, leaders.get(1), 400_000)
                .setReplicas(ThrottleSide.LEADER, "leader-side", ThrottledReplicas.ALL)
                .apply();
        await().atMost(WAIT).ignoreExceptions().until(() -> {
            ThrottleSettings now = throttles.describe(leaders, List.of("leader-side"));
            return leaders.stream()
                            .allMatch(l -> now.rate(ThrottleSide.LEADER, l)
                                    .equals(Optional.of(
                                            new ThrottleRate(400_000, ConfigEntry.ConfigSource.DYNAMIC_BROKER_CONFIG))))
                    && now.replicas(ThrottleSide.LEADER, "leader-side").equals(Optional.of(ThrottledReplicas.ALL));
        });
        assertThat(throttles.rate(ThrottleSide.FOLLOWER, leaders.get(0))).isEmpty();
        assertThat(throttles.rate(ThrottleSide.LEADER, BrokerScope.broker(2))).isEmpty();

        throttles
                .change()
                .removeRate(ThrottleSide.LEADER, leaders.get(0))
                .removeRate(ThrottleSide.LEADER, leaders.get(1))
                .clearReplicas(ThrottleSide.LEADER, "leader-side")
                .apply();
        await().atMost(WAIT).ignoreExceptions().until(() -> {
            ThrottleSettings now = throttles.describe(leaders, List.of("leader-side"));
            return leaders.stream()
                            .allMatch(l -> now.rate(ThrottleSide.LEADER, l).isEmpty())
                    && now.replicas(ThrottleSide.LEADER, "leader-side").isEmpty();
        });
    }

    @Test
    void clusterDefaultRate_isWhatABrokerWithoutItsOwnReports() throws Exception {
        throttles.setRate(ThrottleSide.FOLLOWER, BrokerScope.clusterDefault(), 3_000_000);
        try {
            await().atMost(WAIT)
                    .ignoreExceptions()
                    .until(() -> throttles
                                    .rate(ThrottleSide.FOLLOWER, BrokerScope.clusterDefault())
                                    .map(ThrottleRate::bytesPerSecond)
                                    .equals(Optional.of(3_000_000L))
                            && throttles
                                    .rate(ThrottleSide.FOLLOWER, BrokerScope.broker(2))
                                    .equals(Optional.of(new ThrottleRate(
                                            3_000_000, ConfigEntry.ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG))));
            assertThat(throttles
                            .rate(ThrottleSide.FOLLOWER, BrokerScope.broker(2))
                            .orElseThrow()
                            .isPerBroker())
                    .isFalse();
        } finally {
            throttles.removeRate(ThrottleSide.FOLLOWER, BrokerScope.clusterDefault());
        }
        await().atMost(WAIT)
                .ignoreExceptions()
                .until(() -> throttles
                                .rate(ThrottleSide.FOLLOWER, BrokerScope.broker(2))
                                .isEmpty()
                        && throttles
                                .rate(ThrottleSide.FOLLOWER, BrokerScope.clusterDefault())
                                .isEmpty());
    }

    @Test
    void listEntries_addedAndSubtracted_keepTheEntriesOthersSet() throws Exception {
        cluster.createTopic("entries", 3, 3);
        throttles.setReplicas(ThrottleSide.FOLLOWER, "entries", ThrottledReplicas.of(List.of(new Replica(0, 1))));
        throttles.addReplicas(
                ThrottleSide.FOLLOWER, "entries", List.of(new Replica(0, 1), new Replica(1, 2), new Replica(2, 0)));
        await().atMost(WAIT)
                .ignoreExceptions()
                .until(() -> throttles
                        .replicas(ThrottleSide.FOLLOWER, "entries")
                        .equals(Optional.of(ThrottledReplicas.parse("0:1,1:2,2:0"))));

        throttles.removeReplicas(ThrottleSide.FOLLOWER, "entries", List.of(new Replica(0, 1)));
        await().atMost(WAIT)
                .ignoreExceptions()
                .until(() -> throttles
                        .replicas(ThrottleSide.FOLLOWER, "entries")
                        .equals(Optional.of(ThrottledReplicas.parse("1:2,2:0"))));

        throttles.clearReplicas(ThrottleSide.FOLLOWER, "entries");
        await().atMost(WAIT)
                .ignoreExceptions()
                .until(() ->
                        throttles.replicas(ThrottleSide.FOLLOWER, "entries").isEmpty());
    }

    /** One config of a resource as one broker describes it; empty when that broker lists no such entry. */
    private static Optional<ConfigEntry> config(ConfigResource resource, String name) throws Exception {
        return Optional.ofNullable(cluster.admin()
                .describeConfigs(List.of(resource))
                .all()
                .get()
                .get(resource)
                .get(name));
    }
}
