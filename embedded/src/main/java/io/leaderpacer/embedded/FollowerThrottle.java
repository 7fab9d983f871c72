package io.leaderpacer.embedded;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.config.ConfigResource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Kafka's follower replication throttle for one broker: the rate on the broker, the throttled replica list
 * ({@code *}) on the topics.
 *
 * <p>Why a class: setting it takes two kinds of config resource, and the change is in force only once the brokers
 * report it (it travels through the metadata log), so setting and checking belong together.
 */
final class FollowerThrottle {

    static final String RATE = "follower.replication.throttled.rate";
    static final String REPLICAS = "follower.replication.throttled.replicas";

    private final Admin admin;
    /** Bound on each Admin call. */
    private final Duration timeout;

    FollowerThrottle(Admin admin, Duration timeout) {
        this.admin = admin;
        this.timeout = timeout;
    }

    void set(int broker, long bytesPerSecond, String... topics) {
        if (bytesPerSecond <= 0) {
            throw new IllegalArgumentException("bytesPerSecond must be > 0, was " + bytesPerSecond);
        }
        Map<ConfigResource, Collection<AlterConfigOp>> ops = new LinkedHashMap<>();
        ops.put(brokerResource(broker), List.of(new AlterConfigOp(new ConfigEntry(RATE, Long.toString(bytesPerSecond)),
                AlterConfigOp.OpType.SET)));
        for (String topic : topics) {
            ops.put(topicResource(topic), List.of(new AlterConfigOp(new ConfigEntry(REPLICAS, "*"), AlterConfigOp.OpType.SET)));
        }
        alter(ops, "set the follower throttle of broker " + broker);
    }

    void clear(int broker, String... topics) {
        Map<ConfigResource, Collection<AlterConfigOp>> ops = new LinkedHashMap<>();
        ops.put(brokerResource(broker), List.of(new AlterConfigOp(new ConfigEntry(RATE, null), AlterConfigOp.OpType.DELETE)));
        for (String topic : topics) {
            ops.put(topicResource(topic), List.of(new AlterConfigOp(new ConfigEntry(REPLICAS, null), AlterConfigOp.OpType.DELETE)));
        }
        alter(ops, "clear the follower throttle of broker " + broker);
    }

    /** Whether the broker reports the rate and every topic reports {@code *}. */
    boolean isSet(int broker, long bytesPerSecond, String... topics) {
        Map<ConfigResource, Config> configs = describe(broker, topics);
        if (configs == null || !Long.toString(bytesPerSecond).equals(dynamicValue(configs.get(brokerResource(broker)), RATE))) {
            return false;
        }
        for (String topic : topics) {
            if (!"*".equals(dynamicValue(configs.get(topicResource(topic)), REPLICAS))) {
                return false;
            }
        }
        return true;
    }

    /** Whether neither the broker's rate nor any topic's replica list is set any more. */
    boolean isCleared(int broker, String... topics) {
        Map<ConfigResource, Config> configs = describe(broker, topics);
        if (configs == null || dynamicValue(configs.get(brokerResource(broker)), RATE) != null) {
            return false;
        }
        for (String topic : topics) {
            if (dynamicValue(configs.get(topicResource(topic)), REPLICAS) != null) {
                return false;
            }
        }
        return true;
    }

    private Map<ConfigResource, Config> describe(int broker, String... topics) {
        List<ConfigResource> resources = new ArrayList<>();
        resources.add(brokerResource(broker));
        for (String t : topics) {
            resources.add(topicResource(t));
        }
        try {
            return admin.describeConfigs(resources).all().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            // Not answered (yet): the caller polls again.
            return null;
        }
    }

    /** The value when set (not a default, not empty), else null. */
    private static String dynamicValue(Config config, String key) {
        ConfigEntry e = config == null ? null : config.get(key);
        if (e == null || e.value() == null || e.value().isEmpty() || e.source() == ConfigEntry.ConfigSource.DEFAULT_CONFIG) {
            return null;
        }
        return e.value();
    }

    private void alter(Map<ConfigResource, Collection<AlterConfigOp>> ops, String what) {
        try {
            admin.incrementalAlterConfigs(ops).all().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new EmbeddedKafkaException("could not " + what + ": " + e.getCause(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new EmbeddedKafkaException("interrupted while trying to " + what, e);
        } catch (Exception e) {
            throw new EmbeddedKafkaException("could not " + what + ": " + e, e);
        }
    }

    private static ConfigResource brokerResource(int broker) {
        return new ConfigResource(ConfigResource.Type.BROKER, Integer.toString(broker));
    }

    private static ConfigResource topicResource(String topic) {
        return new ConfigResource(ConfigResource.Type.TOPIC, topic);
    }
}
