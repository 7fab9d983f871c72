package io.leaderpacer.simulator.scenario;

import io.leaderpacer.engine.config.PacerConfig;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * A leadership policy to compare: a name, the engine configuration it runs with (catch-up pacing's keys included), and
 * optionally a static follower replication throttle (KIP-1358's rejected alternative 1, "replication throttling
 * only").
 *
 * @param name                 short name used in tables, files and {@code --policy}
 * @param description          one line for the report
 * @param configOverrides      keys changed from {@link PacerConfig#defaults()}
 * @param replicationThrottleBytesPerSecond a cluster-default follower replication throttle with every replica listed
 *                                          (Kafka's {@code *}), from the start; 0 = none
 */
public record PolicySpec(
        String name,
        String description,
        Map<String, String> configOverrides,
        double replicationThrottleBytesPerSecond) {

    public PolicySpec {
        configOverrides = Collections.unmodifiableMap(new TreeMap<>(configOverrides));
    }

    /** The engine configuration (validated). */
    public PacerConfig config() {
        return PacerConfig.fromMap(configOverrides);
    }
}
