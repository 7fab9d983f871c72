package io.leaderpacer.agent.throttle;

import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.config.ConfigResource;

import java.util.Collection;
import java.util.Objects;

/**
 * One change of one replication throttle key on one resource: a value, so that a caller can decide a batch of
 * changes first and send it later, in requests of the size Kafka takes ({@link ThrottleChange}).
 *
 * <p>Every value is checked here, before anything is sent: a rate under 1 (Kafka takes 0, which stops the throttled
 * replicas' traffic altogether), an empty list (a {@code SET} takes none; {@link #clearReplicas} removes the key), and
 * a value longer than Kafka carries ({@link ThrottledReplicas#MAX_CONFIG_VALUE_CHARS}), over which the Admin client
 * would lose its network thread.
 *
 * @param resource the broker scope or topic
 * @param op       Kafka's operation on the key
 */
public record ThrottleOp(ConfigResource resource, AlterConfigOp op) {

    public ThrottleOp {
        Objects.requireNonNull(resource, "resource");
        Objects.requireNonNull(op, "op");
        String value = op.configEntry().value();
        if (value != null && value.length() > ThrottledReplicas.MAX_CONFIG_VALUE_CHARS) {
            throw new IllegalArgumentException(op.configEntry().name() + " of " + resource + " would be "
                    + value.length() + " characters; Kafka carries at most " + ThrottledReplicas.MAX_CONFIG_VALUE_CHARS
                    + " in a config value");
        }
    }

    /** Sets the side's rate in the scope ({@code SET}); {@code bytesPerSecond} at least 1. */
    public static ThrottleOp setRate(ThrottleSide side, BrokerScope scope, long bytesPerSecond) {
        if (bytesPerSecond < 1) {
            throw new IllegalArgumentException("bytesPerSecond must be >= 1, was " + bytesPerSecond);
        }
        return of(scope.resource(), side.rateKey(), Long.toString(bytesPerSecond), AlterConfigOp.OpType.SET);
    }

    /** Removes the side's rate from the scope ({@code DELETE}); a broker then falls back to the cluster default. */
    public static ThrottleOp removeRate(ThrottleSide side, BrokerScope scope) {
        return of(scope.resource(), side.rateKey(), null, AlterConfigOp.OpType.DELETE);
    }

    /** Replaces the topic's list on that side ({@code SET}), e.g. with {@link ThrottledReplicas#ALL}; not empty. */
    public static ThrottleOp setReplicas(ThrottleSide side, String topic, ThrottledReplicas replicas) {
        if (replicas.isEmpty()) {
            throw new IllegalArgumentException("no replicas to throttle on " + topic + ": use clearReplicas");
        }
        return of(topic(topic), side.replicasKey(), replicas.configValue(), AlterConfigOp.OpType.SET);
    }

    /**
     * Sets the topic's list on that side to a value read from it earlier, character for character ({@code SET}): what
     * a restore puts back, so that an operator's {@code "0:1, 1:2"} comes back as it was written.
     *
     * @throws IllegalArgumentException when the value is not a list Kafka would take, or is empty
     */
    public static ThrottleOp setRawReplicas(ThrottleSide side, String topic, String value) {
        if (ThrottledReplicas.parse(value).isEmpty()) {
            throw new IllegalArgumentException("no replicas to throttle on " + topic + ": use clearReplicas");
        }
        return of(topic(topic), side.replicasKey(), value, AlterConfigOp.OpType.SET);
    }

    /**
     * Adds entries to the topic's list on that side ({@code APPEND}), keeping those others set; entries already there
     * are not repeated. Kafka refuses it when the list is {@code *}.
     */
    public static ThrottleOp addReplicas(
            ThrottleSide side, String topic, Collection<ThrottledReplicas.Replica> replicas) {
        return of(topic(topic), side.replicasKey(), entries(topic, replicas), AlterConfigOp.OpType.APPEND);
    }

    /** Removes these entries from the topic's list on that side ({@code SUBTRACT}), keeping the others. */
    public static ThrottleOp removeReplicas(
            ThrottleSide side, String topic, Collection<ThrottledReplicas.Replica> replicas) {
        return of(topic(topic), side.replicasKey(), entries(topic, replicas), AlterConfigOp.OpType.SUBTRACT);
    }

    /** Removes the topic's list on that side ({@code DELETE}): none of its replicas is throttled on that side. */
    public static ThrottleOp clearReplicas(ThrottleSide side, String topic) {
        return of(topic(topic), side.replicasKey(), null, AlterConfigOp.OpType.DELETE);
    }

    /** The key it changes. */
    public String key() {
        return op.configEntry().name();
    }

    /** The characters of its value (0 for a {@code DELETE}): what it adds to a request's size. */
    public int valueChars() {
        String v = op.configEntry().value();
        return v == null ? 0 : v.length();
    }

    private static ThrottleOp of(ConfigResource resource, String key, String value, AlterConfigOp.OpType type) {
        return new ThrottleOp(resource, new AlterConfigOp(new ConfigEntry(key, value), type));
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
