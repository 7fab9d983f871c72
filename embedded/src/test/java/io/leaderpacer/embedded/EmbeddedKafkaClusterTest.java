package io.leaderpacer.embedded;

import io.leaderpacer.testbed.PacedLoad;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** The wrapper against Kafka's real server code: one 3-broker cluster shared by the class. */
@Tag("cluster")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class EmbeddedKafkaClusterTest {

    private static EmbeddedKafkaCluster cluster;

    @BeforeAll
    static void startCluster() {
        cluster = EmbeddedKafkaCluster.builder().brokers(3).build().start();
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void startedCluster_hasThreeUnfencedBrokersAndAutoRebalanceOff() throws Exception {
        Admin admin = cluster.admin();
        List<Node> nodes = List.copyOf(admin.describeCluster(new DescribeClusterOptions().includeFencedBrokers(true))
                .nodes()
                .get());
        assertThat(nodes).extracting(Node::id).containsExactlyInAnyOrder(0, 1, 2);
        assertThat(nodes).noneMatch(Node::isFenced);
        ConfigResource broker0 = new ConfigResource(ConfigResource.Type.BROKER, "0");
        String value = admin.describeConfigs(List.of(broker0))
                .all()
                .get()
                .get(broker0)
                .get("auto.leader.rebalance.enable")
                .value();
        assertThat(value).isEqualTo("false");
        assertThat(cluster.dataDirectory()).exists();
    }

    @Test
    void stoppedBroker_losesLeadershipAndRejoinsIsrAfterRestart() throws Exception {
        cluster.createTopic("restart", 12, 3);
        AtomicLong errors = new AtomicLong();
        try (PacedLoad load = PacedLoad.builder(cluster.bootstrapServers(), "restart")
                .recordsPerSecond(200)
                .recordBytes(512)
                .listener((latency, error) -> {
                    if (error != null) {
                        errors.incrementAndGet();
                    }
                })
                .build()
                .start()) {
            cluster.stopBroker(2);
            assertThat(cluster.isRunning(2)).isFalse();
            assertThat(partitions("restart"))
                    .noneMatch(p -> p.leader() != null && p.leader().id() == 2);
            cluster.startBroker(2);
            assertThat(cluster.isRunning(2)).isTrue();
            await().atMost(Duration.ofSeconds(60))
                    .until(() ->
                            partitions("restart").stream().allMatch(p -> p.isr().size() == 3));
            // With auto rebalance off, leadership stays off the restarted broker.
            assertThat(partitions("restart")).noneMatch(p -> p.leader().id() == 2);
            await().atMost(Duration.ofSeconds(30)).until(() -> load.acknowledged() > 100);
        }
    }

    @Test
    void killedBroker_isFencedThenRestartsOnTheSamePort() throws Exception {
        cluster.createTopic("kill", 6, 3);
        String before = cluster.bootstrapServers();
        cluster.killBroker(0);
        assertThat(cluster.isRunning(0)).isFalse();
        await().atMost(Duration.ofSeconds(30))
                .until(
                        () -> cluster
                                .admin()
                                .describeCluster(new DescribeClusterOptions().includeFencedBrokers(true))
                                .nodes()
                                .get()
                                .stream()
                                .anyMatch(n -> n.id() == 0 && n.isFenced()));
        cluster.startBroker(0);
        assertThat(cluster.bootstrapServers()).isEqualTo(before);
        await().atMost(Duration.ofSeconds(60))
                .until(() -> partitions("kill").stream().allMatch(p -> p.isr().size() == 3));
    }

    @Test
    void unknownBroker_isRejectedWithTheKnownIds() {
        assertThatThrownBy(() -> cluster.stopBroker(7))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no broker 7")
                .hasMessageContaining("[0, 1, 2]");
    }

    @Test
    void existingTopic_isReportedByName() {
        cluster.createTopic("twice", 1, 1, Map.of("cleanup.policy", "compact"));
        assertThatThrownBy(() -> cluster.createTopic("twice", 1, 1))
                .isInstanceOf(EmbeddedKafkaException.class)
                .hasMessageContaining("'twice' already exists");
    }

    @Test
    void closedCluster_deletesItsDataDirectory() {
        EmbeddedKafkaCluster single =
                EmbeddedKafkaCluster.builder().brokers(1).build().start();
        Path dir = single.dataDirectory();
        single.close();
        assertThat(Files.exists(dir)).isFalse();
        assertThatThrownBy(single::bootstrapServers).isInstanceOf(IllegalStateException.class);
    }

    private static List<TopicPartitionInfo> partitions(String topic) throws Exception {
        TopicDescription d = cluster.admin()
                .describeTopics(List.of(topic))
                .allTopicNames()
                .get()
                .get(topic);
        return d.partitions();
    }
}
