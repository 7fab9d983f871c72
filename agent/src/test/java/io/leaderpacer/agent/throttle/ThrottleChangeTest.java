package io.leaderpacer.agent.throttle;

import io.leaderpacer.agent.throttle.ThrottledReplicas.Replica;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The operations a change sends, without a cluster. */
class ThrottleChangeTest {

    /** Any call on it fails the test: building a change sends nothing. */
    private static final Admin NO_CALLS = (Admin) Proxy.newProxyInstance(
            Admin.class.getClassLoader(), new Class<?>[] {Admin.class}, (proxy, method, args) -> {
                throw new AssertionError("unexpected Admin call " + method.getName());
            });

    private final ReplicationThrottles throttles = new ReplicationThrottles(NO_CALLS, Duration.ofSeconds(1));

    private static final ConfigResource BROKER_2 = new ConfigResource(ConfigResource.Type.BROKER, "2");
    private static final ConfigResource DEFAULT = new ConfigResource(ConfigResource.Type.BROKER, "");
    private static final ConfigResource TOPIC = new ConfigResource(ConfigResource.Type.TOPIC, "t");

    @Test
    void ratesAndLists_becomeKafkasOperationsOnTheirResources() {
        Map<ConfigResource, Collection<AlterConfigOp>> ops = throttles
                .change()
                .setRate(ThrottleSide.FOLLOWER, BrokerScope.broker(2), 250_000)
                .setRate(ThrottleSide.LEADER, BrokerScope.clusterDefault(), 1_000_000)
                .setReplicas(ThrottleSide.FOLLOWER, "t", ThrottledReplicas.ALL)
                .addReplicas(ThrottleSide.LEADER, "t", List.of(new Replica(0, 2), new Replica(1, 2)))
                .operations();
        assertThat(ops.keySet()).containsExactly(BROKER_2, DEFAULT, TOPIC);
        assertThat(describe(ops.get(BROKER_2))).containsExactly("SET follower.replication.throttled.rate=250000");
        assertThat(describe(ops.get(DEFAULT))).containsExactly("SET leader.replication.throttled.rate=1000000");
        assertThat(describe(ops.get(TOPIC)))
                .containsExactly(
                        "SET follower.replication.throttled.replicas=*",
                        "APPEND leader.replication.throttled.replicas=0:2,1:2");
    }

    @Test
    void removals_areDeletesAndSubtracts() {
        Map<ConfigResource, Collection<AlterConfigOp>> ops = throttles
                .change()
                .removeRate(ThrottleSide.FOLLOWER, BrokerScope.broker(2))
                .removeReplicas(ThrottleSide.LEADER, "t", List.of(new Replica(0, 2)))
                .clearReplicas(ThrottleSide.FOLLOWER, "t")
                .operations();
        assertThat(describe(ops.get(BROKER_2))).containsExactly("DELETE follower.replication.throttled.rate=null");
        assertThat(describe(ops.get(TOPIC)))
                .containsExactly(
                        "SUBTRACT leader.replication.throttled.replicas=0:2",
                        "DELETE follower.replication.throttled.replicas=null");
    }

    @Test
    void impossibleChanges_areRefusedBeforeAnythingIsSent() {
        assertThatThrownBy(() -> throttles.change().setRate(ThrottleSide.LEADER, BrokerScope.broker(0), 0))
                .hasMessageContaining("bytesPerSecond must be >= 1");
        assertThatThrownBy(
                        () -> throttles.change().setReplicas(ThrottleSide.LEADER, "t", ThrottledReplicas.of(List.of())))
                .hasMessageContaining("use clearReplicas");
        assertThatThrownBy(() -> throttles.change().addReplicas(ThrottleSide.LEADER, "t", List.of()))
                .hasMessageContaining("no replica entries");
        assertThatThrownBy(() -> throttles
                        .change()
                        .setRate(ThrottleSide.LEADER, BrokerScope.broker(0), 5)
                        .removeRate(ThrottleSide.LEADER, BrokerScope.broker(0)))
                .hasMessageContaining("already changed in this request");
        assertThatThrownBy(() -> throttles.change().apply()).hasMessageContaining("no throttle change");
    }

    @Test
    void listLongerThanKafkaCarries_isRefusedBeforeAnythingIsSent() {
        List<Replica> many =
                IntStream.range(0, 5000).mapToObj(p -> new Replica(p, 1)).toList();
        assertThat(ThrottledReplicas.of(many).configValue().length()).isGreaterThan(Short.MAX_VALUE);

        assertThatThrownBy(() -> throttles.change().addReplicas(ThrottleSide.FOLLOWER, "t", many))
                .hasMessageContaining("follower.replication.throttled.replicas")
                .hasMessageContaining("t")
                .hasMessageContaining("Kafka carries at most 32767");
        assertThat(throttles
                        .change()
                        .addReplicas(ThrottleSide.FOLLOWER, "t", many.subList(0, 4000))
                        .operations())
                .containsKey(TOPIC);
    }

    private static List<String> describe(Collection<AlterConfigOp> ops) {
        return ops.stream()
                .map(op -> op.opType() + " " + op.configEntry().name() + "="
                        + op.configEntry().value())
                .toList();
    }
}
