package io.leaderpacer.agent.throttle;

import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.common.config.ConfigResource;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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

    private int count;

    ThrottleChange(ReplicationThrottles throttles) {
        this.throttles = throttles;
    }

    /** {@link ThrottleOp#setRate}. */
    public ThrottleChange setRate(ThrottleSide side, BrokerScope scope, long bytesPerSecond) {
        return add(ThrottleOp.setRate(side, scope, bytesPerSecond));
    }

    /** {@link ThrottleOp#removeRate}. */
    public ThrottleChange removeRate(ThrottleSide side, BrokerScope scope) {
        return add(ThrottleOp.removeRate(side, scope));
    }

    /** {@link ThrottleOp#setReplicas}. */
    public ThrottleChange setReplicas(ThrottleSide side, String topic, ThrottledReplicas replicas) {
        return add(ThrottleOp.setReplicas(side, topic, replicas));
    }

    /** {@link ThrottleOp#addReplicas}. */
    public ThrottleChange addReplicas(ThrottleSide side, String topic, Collection<ThrottledReplicas.Replica> replicas) {
        return add(ThrottleOp.addReplicas(side, topic, replicas));
    }

    /** {@link ThrottleOp#removeReplicas}. */
    public ThrottleChange removeReplicas(
            ThrottleSide side, String topic, Collection<ThrottledReplicas.Replica> replicas) {
        return add(ThrottleOp.removeReplicas(side, topic, replicas));
    }

    /** {@link ThrottleOp#clearReplicas}. */
    public ThrottleChange clearReplicas(ThrottleSide side, String topic) {
        return add(ThrottleOp.clearReplicas(side, topic));
    }

    /**
     * Adds one operation.
     *
     * @throws IllegalArgumentException when the request already changes that key of that resource: Kafka refuses a
     *                                  request that changes one key of a resource twice
     */
    public ThrottleChange add(ThrottleOp op) {
        List<AlterConfigOp> list = ops.computeIfAbsent(op.resource(), r -> new ArrayList<>());
        if (list.stream().anyMatch(o -> o.configEntry().name().equals(op.key()))) {
            throw new IllegalArgumentException(
                    op.key() + " of " + op.resource() + " is already changed in this request");
        }
        list.add(op.op());
        count++;
        return this;
    }

    /** How many operations it holds. */
    public int size() {
        return count;
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

    /**
     * Sends every change in one request and waits for each resource's answer: Kafka applies each resource's
     * operations atomically and the resources independently, so some may land while others fail.
     *
     * @return per resource, empty when Kafka applied its changes, else why not (a {@link TimeoutException} when it
     *         did not answer in time: the change may or may not have landed)
     * @throws IllegalStateException when nothing was added
     */
    public Map<ConfigResource, Optional<Throwable>> applyEach() throws InterruptedException {
        if (ops.isEmpty()) {
            throw new IllegalStateException("no throttle change to apply");
        }
        return throttles.alterEach(operations());
    }

    /** The request's operations, by resource (a copy). */
    Map<ConfigResource, Collection<AlterConfigOp>> operations() {
        Map<ConfigResource, Collection<AlterConfigOp>> copy = new LinkedHashMap<>();
        ops.forEach((resource, list) -> copy.put(resource, List.copyOf(list)));
        return copy;
    }
}
