package io.leaderpacer.agent.throttle;

import org.apache.kafka.clients.admin.ConfigEntry;

import java.util.Objects;

/**
 * A rate as a broker reports it, and where it comes from.
 *
 * <p>Why the source: a broker without a rate of its own reports the cluster default
 * ({@link ConfigEntry.ConfigSource#DYNAMIC_DEFAULT_BROKER_CONFIG}); a caller that set a per-broker rate waits for
 * {@link ConfigEntry.ConfigSource#DYNAMIC_BROKER_CONFIG}.
 *
 * @param bytesPerSecond the rate
 * @param source         where the broker has it from
 */
public record ThrottleRate(long bytesPerSecond, ConfigEntry.ConfigSource source) {

    public ThrottleRate {
        Objects.requireNonNull(source, "source");
    }

    /** Whether the rate is the broker's own dynamic value (not the cluster default or its static configuration). */
    public boolean isPerBroker() {
        return source == ConfigEntry.ConfigSource.DYNAMIC_BROKER_CONFIG;
    }
}
