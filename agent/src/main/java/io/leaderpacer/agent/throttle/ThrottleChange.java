package io.leaderpacer.agent.throttle;

import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.config.ConfigResource;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

/**
 * Throttle changes collected for one {@code incrementalAlterConfigs} request: e.g. a follower rate on a restarting
 * broker, a leader rate on the brokers it fetches from and the topics' replica lists, sent together.
 *
 * <p>Kafka applies each resource's operations atomically, and the request's resources independently: when
 * {@link #apply()} fails, some resources may have changed. Made by {@link ReplicationThrottles#change()}.
 */
public final class ThrottleChange {

    private final ReplicationThrottles throttles;
    /** The operations, by resource, in the order they were added. */
    private final Map<ConfigResource, List<AlterConfigOp>> ops = new LinkedHashMap<>();

    ThrottleChange(ReplicationThrottles throttles) {
        this.throttles = throttles;
    }

    /**
     * Sets the side's rate in the scope ({@code SET}).
     *
     * @param bytesPerSecond at least 1: Kafka also takes 0, which stops the throttled replicas' traffic altogether
     */
    public ThrottleChange setRate(ThrottleSide side, BrokerScope scope, long bytesPerSecond) {
        if (bytesPerSecond < 1) {
            throw new IllegalArgumentException("bytesPerSecond must be >= 1, was " + bytesPerSecond);
        }
        return add(scope.resource(), side.rateKey(), Long.toString(bytesPerSecond), AlterConfigOp.OpType.SET);
    }

    /** Removes the side's rate from the scope ({@code DELETE}); a broker then falls back to the cluster default. */
    public ThrottleChange removeRate(ThrottleSide side, BrokerScope scope) {
        return add(scope.resource(), side.rateKey(), null, AlterConfigOp.OpType.DELETE);
    }

    /**
     * Replaces the topic's list on that side ({@code SET}), e.g. with {@link ThrottledReplicas#ALL}.
     *
     * @throws IllegalArgumentException for an empty list: {@link #clearReplicas} removes the setting
     */
    public ThrottleChange setReplicas(ThrottleSide side, String topic, ThrottledReplicas replicas) {
        if (replicas.isEmpty()) {
            throw new IllegalArgumentException("no replicas to throttle on " + topic + ": use clearReplicas");
        }
        return add(topic(topic), side.replicasKey(), replicas.configValue(), AlterConfigOp.OpType.SET);
    }

    /**
     * Adds entries to the topic's list on that side ({@code APPEND}), keeping those others set; entries already there
     * are not repeated. Kafka refuses the request when the list is {@code *}.
     */
    public ThrottleChange addReplicas(ThrottleSide side, String topic, Collection<ThrottledReplicas.Replica> replicas) {
        return add(topic(topic), side.replicasKey(), entries(topic, replicas), AlterConfigOp.OpType.APPEND);
    }

    /** Removes these entries from the topic's list on that side ({@code SUBTRACT}), keeping the others. */
    public ThrottleChange removeReplicas(ThrottleSide side, String topic, Collection<ThrottledReplicas.Replica> replicas) {
        return add(topic(topic), side.replicasKey(), entries(topic, replicas), AlterConfigOp.OpType.SUBTRACT);
    }

    /** Removes the topic's list on that side ({@code DELETE}): none of its replicas is throttled on that side. */
    public ThrottleChange clearReplicas(ThrottleSide side, String topic) {
        return add(topic(topic), side.replicasKey(), null, AlterConfigOp.OpType.DELETE);
    }

    /**
     * Sends every change in one request; returns when the controller has accepted them (each broker applies them
     * once they reach it through the metadata log: see {@link ReplicationThrottles#describe}).
     *
     * @throws ExecutionException when Kafka refused a change (the cause says why, e.g. not authorized or invalid)
     * @throws TimeoutException   when the cluster did not answer in time
     * @throws IllegalStateException when nothing was added
     */
    public void apply() throws InterruptedException, ExecutionException, TimeoutException {
        if (ops.isEmpty()) {
            throw new IllegalStateException("no throttle change to apply");
        }
        throttles.alter(operations());
    }

    /** The request's operations, by resource (a copy). */
    Map<ConfigResource, Collection<AlterConfigOp>> operations() {
        Map<ConfigResource, Collection<AlterConfigOp>> copy = new LinkedHashMap<>();
        ops.forEach((resource, list) -> copy.put(resource, List.copyOf(list)));
        return copy;
    }

    private ThrottleChange add(ConfigResource resource, String key, String value, AlterConfigOp.OpType type) {
        if (value != null && value.length() > ThrottledReplicas.MAX_CONFIG_VALUE_CHARS) {
            // Refused here, before anything is sent: the Admin client would lose its network thread over it.
            throw new IllegalArgumentException(key + " of " + resource + " would be " + value.length() + " characters;"
                    + " Kafka carries at most " + ThrottledReplicas.MAX_CONFIG_VALUE_CHARS + " in a config value");
        }
        List<AlterConfigOp> list = ops.computeIfAbsent(resource, r -> new ArrayList<>());
        if (list.stream().anyMatch(op -> op.configEntry().name().equals(key))) {
            // Kafka refuses a request that changes one key of a resource twice.
            throw new IllegalArgumentException(key + " of " + resource + " is already changed in this request");
        }
        list.add(new AlterConfigOp(new ConfigEntry(key, value), type));
        return this;
    }

    private static String entries(String topic, Collection<ThrottledReplicas.Replica> replicas) {
        if (replicas.isEmpty()) {
            throw new IllegalArgumentException("no replica entries given for " + topic);
        }
        return ThrottledReplicas.of(replicas).configValue();
    }

    private static ConfigResource topic(String topic) {
        return new ConfigResource(ConfigResource.Type.TOPIC, Objects.requireNonNull(topic, "topic"));
    }
}
