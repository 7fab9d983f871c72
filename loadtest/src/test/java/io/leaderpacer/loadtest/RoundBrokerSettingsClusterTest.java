package io.leaderpacer.loadtest;

import io.leaderpacer.cluster.ProcessKafkaCluster;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A round's broker settings on a real cluster: taken by every broker, refused ones named, put back exactly. */
@Tag("cluster")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class RoundBrokerSettingsClusterTest {

    private static final String FETCHERS = "num.replica.fetchers";
    private static final ConfigResource CLUSTER_DEFAULT = new ConfigResource(ConfigResource.Type.BROKER, "");
    private static final Duration TIMEOUT = Duration.ofSeconds(20);

    private static ProcessKafkaCluster cluster;
    private static Admin admin;

    @BeforeAll
    static void start() {
        cluster = ProcessKafkaCluster.builder().brokers(2).brokerHeap("256m").build();
        cluster.start();
        admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers()));
    }

    @AfterAll
    static void stop() {
        if (admin != null) {
            admin.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    /** Kafka's default back on every broker before the next test reads what is in force (brokers answer late). */
    @AfterEach
    void removeDefault() throws Exception {
        alterDefault(new AlterConfigOp(new ConfigEntry(FETCHERS, null), AlterConfigOp.OpType.DELETE));
        awaitBrokers("1");
    }

    @Test
    void aSetting_isTakenByEveryBroker_andRemovedAfterTheRound_whenNoneWasSetBefore() throws Exception {
        RoundBrokerSettings round =
                RoundBrokerSettings.apply(admin, Map.of(FETCHERS, "2"), cluster.brokerIds(), TIMEOUT);
        for (int b : cluster.brokerIds()) {
            assertThat(brokerValue(b)).isEqualTo("2");
        }
        round.close();
        assertThat(clusterDefault()).isEmpty();
    }

    @Test
    void someoneElsesDefault_isPutBackExactly_afterTheRound() throws Exception {
        alterDefault(new AlterConfigOp(new ConfigEntry(FETCHERS, "2"), AlterConfigOp.OpType.SET));
        awaitBrokers("2");
        RoundBrokerSettings round =
                RoundBrokerSettings.apply(admin, Map.of(FETCHERS, "4"), cluster.brokerIds(), TIMEOUT);
        assertThat(clusterDefault()).hasValue("4");
        round.close();
        assertThat(clusterDefault()).hasValue("2");
    }

    @Test
    void aValueTheBrokersRefuse_failsNamingTheBrokerAndTheSetting_andLeavesNothingSet() throws Exception {
        // Kafka lets a thread count at most double per change: 1 -> 4 is refused when it is asked.
        assertThatThrownBy(() -> RoundBrokerSettings.apply(
                        admin, Map.of(FETCHERS, "4"), cluster.brokerIds(), Duration.ofSeconds(5)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("could not set the broker settings {num.replica.fetchers=4}")
                .hasMessageContaining("not be greater than double the current value 1");
        assertThat(clusterDefault()).isEmpty();
    }

    private static void alterDefault(AlterConfigOp op) throws Exception {
        admin.incrementalAlterConfigs(Map.of(CLUSTER_DEFAULT, List.of(op)))
                .all()
                .get(30, TimeUnit.SECONDS);
    }

    private static Optional<String> clusterDefault() throws Exception {
        Config c = admin.describeConfigs(List.of(CLUSTER_DEFAULT))
                .all()
                .get(30, TimeUnit.SECONDS)
                .get(CLUSTER_DEFAULT);
        ConfigEntry e = c.get(FETCHERS);
        return e == null || e.source() != ConfigEntry.ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG
                ? Optional.empty()
                : Optional.of(e.value());
    }

    private static String brokerValue(int broker) throws Exception {
        ConfigResource r = new ConfigResource(ConfigResource.Type.BROKER, Integer.toString(broker));
        return admin.describeConfigs(List.of(r))
                .all()
                .get(30, TimeUnit.SECONDS)
                .get(r)
                .get(FETCHERS)
                .value();
    }

    private static void awaitBrokers(String value) throws Exception {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        for (int b : cluster.brokerIds()) {
            while (!value.equals(brokerValue(b))) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("broker " + b + " did not take " + FETCHERS + "=" + value);
                }
                Thread.sleep(100);
            }
        }
    }
}
