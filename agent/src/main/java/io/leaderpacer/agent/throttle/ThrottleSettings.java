package io.leaderpacer.agent.throttle;

import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.config.ConfigResource;

import java.util.Map;
import java.util.Optional;

/**
 * The throttle settings the brokers reported for some brokers and topics, read in one {@code describeConfigs} call.
 *
 * <p>A rate or a list counts as set when the broker reports a non-empty value from anywhere but Kafka's built-in
 * default; {@link ThrottleRate#source()} says from where.
 */
public final class ThrottleSettings {

    /** The described configurations, by resource. */
    private final Map<ConfigResource, Config> configs;

    /** The configurations as {@code describeConfigs} answered them, by resource. */
    public ThrottleSettings(Map<ConfigResource, Config> configs) {
        this.configs = Map.copyOf(configs);
    }

    /**
     * The side's rate as the scope reports it; empty when not set there (nor, for a broker, as the cluster default).
     *
     * @throws IllegalArgumentException when the scope was not described
     */
    public Optional<ThrottleRate> rate(ThrottleSide side, BrokerScope scope) {
        return value(scope.resource(), side.rateKey())
                .map(e -> new ThrottleRate(Long.parseLong(e.value().trim()), e.source()));
    }

    /**
     * The side's throttled replicas of the topic; empty when not set.
     *
     * @throws IllegalArgumentException when the topic was not described
     */
    public Optional<ThrottledReplicas> replicas(ThrottleSide side, String topic) {
        return value(new ConfigResource(ConfigResource.Type.TOPIC, topic), side.replicasKey())
                .map(e -> ThrottledReplicas.parse(e.value()));
    }

    /**
     * The side's list of the topic as the brokers report it, character for character (an operator's {@code "0:1, 1:2"}
     * stays so); empty when not set. What a restore must put back.
     */
    public Optional<String> rawReplicas(ThrottleSide side, String topic) {
        return value(new ConfigResource(ConfigResource.Type.TOPIC, topic), side.replicasKey())
                .map(ConfigEntry::value);
    }

    /**
     * Whether the side's list of the topic is set to an empty value: what a {@code SUBTRACT} of its last entries
     * leaves. It throttles nothing, as no list does, but it is not the absent list it may have been before.
     */
    public boolean blankReplicas(ThrottleSide side, String topic) {
        ConfigResource r = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        Config config = configs.get(r);
        if (config == null) {
            throw new IllegalArgumentException(r + " was not described; described: " + configs.keySet());
        }
        ConfigEntry e = config.get(side.replicasKey());
        return e != null
                && e.value() != null
                && e.value().isBlank()
                && e.source() != ConfigEntry.ConfigSource.DEFAULT_CONFIG;
    }

    private Optional<ConfigEntry> value(ConfigResource resource, String key) {
        Config config = configs.get(resource);
        if (config == null) {
            throw new IllegalArgumentException(resource + " was not described; described: " + configs.keySet());
        }
        ConfigEntry e = config.get(key);
        if (e == null
                || e.value() == null
                || e.value().isBlank()
                || e.source() == ConfigEntry.ConfigSource.DEFAULT_CONFIG) {
            return Optional.empty();
        }
        return Optional.of(e);
    }

    @Override
    public String toString() {
        return "ThrottleSettings" + configs;
    }
}
