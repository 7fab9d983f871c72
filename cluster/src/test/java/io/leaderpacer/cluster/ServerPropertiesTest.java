package io.leaderpacer.cluster;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ServerPropertiesTest {

    private static ClusterSettings settings(Map<String, String> broker, Map<String, String> controller) {
        return new ClusterSettings(3, broker, controller, "512m", "256m", List.of(), null, "cp", Path.of("java"),
                Duration.ofSeconds(60), Duration.ofSeconds(10));
    }

    @Test
    void broker_listensOnLoopbackOnlyWithTheStaticVoter() {
        Map<String, String> p = ServerProperties.broker(1, 9001, "3000@127.0.0.1:9000", Path.of("/d"), settings(Map.of(), Map.of()));
        assertThat(p).containsEntry("process.roles", "broker").containsEntry("node.id", "1")
                .containsEntry("listeners", "PLAINTEXT://127.0.0.1:9001")
                .containsEntry("advertised.listeners", "PLAINTEXT://127.0.0.1:9001")
                .containsEntry("controller.quorum.voters", "3000@127.0.0.1:9000")
                .containsEntry("broker.session.timeout.ms", "3000")
                .containsEntry("auto.leader.rebalance.enable", "false")
                .containsEntry("offsets.topic.replication.factor", "3")
                .containsEntry("log.dirs", "/d");
    }

    @Test
    void userSettings_overrideDefaultsOnEveryNode_controllerSettingsOnlyOnTheController() {
        ClusterSettings s = settings(Map.of("auto.leader.rebalance.enable", "true"), Map.of("num.io.threads", "1"));
        Map<String, String> broker = ServerProperties.broker(0, 9001, "v", Path.of("/d"), s);
        Map<String, String> controller = ServerProperties.controller(3000, 9000, "v", Path.of("/c"), s);
        assertThat(broker).containsEntry("auto.leader.rebalance.enable", "true").containsEntry("num.io.threads", "4");
        assertThat(controller).containsEntry("auto.leader.rebalance.enable", "true").containsEntry("num.io.threads", "1")
                .containsEntry("process.roles", "controller").containsEntry("listeners", "CONTROLLER://127.0.0.1:9000");
    }

    @Test
    void builder_rejectsKeysTheClusterSetsItselfAndBadValues() {
        assertThatThrownBy(() -> ProcessKafkaCluster.builder().brokerConfig("listeners", "PLAINTEXT://:9092"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("listeners");
        assertThatThrownBy(() -> ProcessKafkaCluster.builder().controllerConfig("node.id", "1"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ProcessKafkaCluster.builder().brokers(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ProcessKafkaCluster.builder().brokerHeap("lots")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ProcessKafkaCluster.builder().startTimeout(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void unstartedCluster_knowsItsBrokerIdsButNoAddresses() {
        ProcessKafkaCluster cluster = ProcessKafkaCluster.builder().brokers(2).build();
        assertThat(cluster.brokerIds()).containsExactly(0, 1);
        assertThatThrownBy(cluster::bootstrapServers).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> cluster.pid(0)).isInstanceOf(IllegalStateException.class);
        cluster.close();
        assertThatThrownBy(cluster::start).isInstanceOf(IllegalStateException.class);
    }
}
