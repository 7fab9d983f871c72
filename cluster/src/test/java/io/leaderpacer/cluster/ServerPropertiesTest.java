package io.leaderpacer.cluster;

import io.leaderpacer.testbed.KeyStoreFile;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ServerPropertiesTest {

    private static ClusterSettings settings(Map<String, String> broker, Map<String, String> controller) {
        return new ClusterSettings(
                3,
                broker,
                controller,
                "512m",
                "256m",
                List.of(),
                null,
                "cp",
                Path.of("java"),
                Duration.ofSeconds(60),
                Duration.ofSeconds(10),
                null);
    }

    @Test
    void broker_listensOnLoopbackOnlyWithTheStaticVoter() {
        Map<String, String> p =
                ServerProperties.broker(1, 9001, "3000@127.0.0.1:9000", Path.of("/d"), settings(Map.of(), Map.of()));
        assertThat(p)
                .containsEntry("process.roles", "broker")
                .containsEntry("node.id", "1")
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
        assertThat(controller)
                .containsEntry("auto.leader.rebalance.enable", "true")
                .containsEntry("num.io.threads", "1")
                .containsEntry("process.roles", "controller")
                .containsEntry("listeners", "CONTROLLER://127.0.0.1:9000");
    }

    private static ClusterSettings withTls(TlsListener tls) {
        return new ClusterSettings(
                3,
                Map.of(),
                Map.of(),
                "512m",
                "256m",
                List.of(),
                null,
                "cp",
                Path.of("java"),
                Duration.ofSeconds(60),
                Duration.ofSeconds(10),
                tls);
    }

    @Test
    void tlsListener_addsAnSslClientListenerOnTheBrokersOnly_withItsStoresUnderItsOwnPrefix() {
        KeyStoreFile broker = new KeyStoreFile(Path.of("/s/broker.p12"), "b-pw");
        KeyStoreFile trust = new KeyStoreFile(Path.of("/s/trust.p12"), "t-pw");
        ClusterSettings s = withTls(TlsListener.oneWay(broker, trust));
        Map<String, String> p = ServerProperties.broker(1, 9001, 9101, "v", Path.of("/d"), s);
        assertThat(p)
                .containsEntry("listeners", "PLAINTEXT://127.0.0.1:9001,SSL://127.0.0.1:9101")
                .containsEntry("advertised.listeners", "PLAINTEXT://127.0.0.1:9001,SSL://127.0.0.1:9101")
                .containsEntry("inter.broker.listener.name", "PLAINTEXT")
                .containsEntry("listener.security.protocol.map", "CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT,SSL:SSL")
                .containsEntry("listener.name.ssl.ssl.keystore.location", "/s/broker.p12")
                .containsEntry("listener.name.ssl.ssl.keystore.password", "b-pw")
                .containsEntry("listener.name.ssl.ssl.truststore.location", "/s/trust.p12")
                .containsEntry("listener.name.ssl.ssl.client.auth", "none")
                .doesNotContainKey("ssl.keystore.location");
        assertThat(ServerProperties.controller(3000, 9000, "v", Path.of("/c"), s))
                .containsEntry("listeners", "CONTROLLER://127.0.0.1:9000")
                .doesNotContainKey("listener.name.ssl.ssl.keystore.location");
    }

    @Test
    void mutualTlsListener_requiresClientCertificates_andTheClusterPresentsItsOwn() {
        KeyStoreFile client = new KeyStoreFile(Path.of("/s/admin.p12"), "a-pw");
        TlsListener tls = TlsListener.mutual(
                new KeyStoreFile(Path.of("/s/broker.p12"), "b-pw"),
                new KeyStoreFile(Path.of("/s/trust.p12"), "t-pw"),
                client);
        assertThat(ServerProperties.broker(0, 9001, 9101, "v", Path.of("/d"), withTls(tls)))
                .containsEntry("listener.name.ssl.ssl.client.auth", "required");
        assertThat(tls.clientProperties())
                .containsEntry("security.protocol", "SSL")
                .containsEntry("ssl.endpoint.identification.algorithm", "https")
                .containsEntry("ssl.truststore.location", "/s/trust.p12")
                .containsEntry("ssl.keystore.location", "/s/admin.p12")
                .containsEntry("ssl.key.password", "a-pw");
        assertThat(TlsListener.oneWay(client, client).clientProperties()).doesNotContainKey("ssl.keystore.location");
        assertThat(tls.toString()).doesNotContain("pw");
    }

    @Test
    void builder_rejectsKeysTheClusterSetsItselfAndBadValues() {
        assertThatThrownBy(() -> ProcessKafkaCluster.builder().brokerConfig("listeners", "PLAINTEXT://:9092"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("listeners");
        assertThatThrownBy(() -> ProcessKafkaCluster.builder().controllerConfig("node.id", "1"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ProcessKafkaCluster.builder().brokers(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ProcessKafkaCluster.builder().brokerHeap("lots"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ProcessKafkaCluster.builder().startTimeout(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void unstartedCluster_knowsItsBrokerIdsButNoAddresses() {
        ProcessKafkaCluster cluster = ProcessKafkaCluster.builder().brokers(2).build();
        assertThat(cluster.brokerIds()).containsExactly(0, 1);
        assertThatThrownBy(cluster::bootstrapServers).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(cluster::tlsBootstrapServers).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> cluster.pid(0)).isInstanceOf(IllegalStateException.class);
        cluster.close();
        assertThatThrownBy(cluster::start).isInstanceOf(IllegalStateException.class);
    }
}
