package io.leaderpacer.agent.throttle;

import org.apache.kafka.common.config.ConfigResource;

/**
 * Where a rate is set: on one broker, or as the cluster-wide default every broker without its own value uses.
 *
 * <p>A per-broker change is routed to that broker, so it can be made only while the broker runs; the cluster default
 * is handled by the controller and can be made at any time.
 *
 * @param brokerId the broker's id as Kafka's config resource names it; empty for the cluster default
 */
public record BrokerScope(String brokerId) {

    public BrokerScope {
        if (brokerId == null || !(brokerId.isEmpty() || brokerId.matches("\\d+"))) {
            throw new IllegalArgumentException(
                    "a broker scope is a broker id or empty (the cluster default), not " + brokerId);
        }
    }

    /** One broker: {@code ConfigResource(BROKER, "id")}. */
    public static BrokerScope broker(int id) {
        if (id < 0) {
            throw new IllegalArgumentException("broker id must be >= 0, was " + id);
        }
        return new BrokerScope(Integer.toString(id));
    }

    /** The cluster-wide default: {@code ConfigResource(BROKER, "")}. */
    public static BrokerScope clusterDefault() {
        return new BrokerScope("");
    }

    public boolean isClusterDefault() {
        return brokerId.isEmpty();
    }

    /** Kafka's config resource for this scope. */
    public ConfigResource resource() {
        return new ConfigResource(ConfigResource.Type.BROKER, brokerId);
    }

    @Override
    public String toString() {
        return isClusterDefault() ? "cluster default" : "broker " + brokerId;
    }
}
