package io.leaderpacer.engine.policy;

import io.leaderpacer.engine.config.ConfigKey;

import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.IntFunction;

/**
 * One named policy of the {@link PolicyRegistry}, or of a registry that extends it (the load test's): its name, one
 * line saying what it is, and the configuration keys it sets (every other key keeps its default).
 *
 * <p>Why the settings are a function of the preferred-partition count: a policy scaled to a run's size (the load
 * test's {@code kip-example-scaled}, in the load test's registry, returns the restarted broker's preferred partitions
 * in about 25 capped batches, as KIP-1358's example returns its 5,000 in batches of 200) has a cap that depends on how
 * many partitions the broker prefers ({@link #sized}). Every other policy ignores the count.
 *
 * <p>A production preset ({@link #productionPreset()}) is an entry whose settings are fixed and that the agent can
 * run: what {@code pacer config --preset} writes and {@link PresetMatch} recognises. A sized entry cannot be one (a
 * cluster-wide key has one value for every broker) and names the preset to use instead ({@link #productionInstead()}).
 */
public final class PolicyEntry {

    private final String name;
    private final String description;
    private final IntFunction<Map<ConfigKey, String>> settings;
    private final boolean sizedByPreferredPartitions;
    private final boolean modelOnly;
    /** For a sized entry: the production preset to use instead; otherwise null. */
    private final String productionInstead;

    private PolicyEntry(
            String name,
            String description,
            IntFunction<Map<ConfigKey, String>> settings,
            boolean sizedByPreferredPartitions,
            boolean modelOnly,
            String productionInstead) {
        this.name = Objects.requireNonNull(name, "name");
        this.description = Objects.requireNonNull(description, "description");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.sizedByPreferredPartitions = sizedByPreferredPartitions;
        this.modelOnly = modelOnly;
        this.productionInstead = productionInstead;
    }

    /** A policy whose settings do not depend on the run's size. */
    static PolicyEntry fixed(String name, String description, Map<ConfigKey, String> settings) {
        Map<ConfigKey, String> copy = copy(settings);
        return new PolicyEntry(name, description, preferred -> copy, false, false, null);
    }

    /**
     * A policy whose settings depend on the preferred-partition count of the restarted broker: for a registry that
     * extends {@link PolicyRegistry} with policies sized to a run (the load test's); the engine's own has none.
     *
     * @param productionInstead the production preset an operator should use instead on a real cluster
     */
    public static PolicyEntry sized(
            String name, String description, IntFunction<Map<ConfigKey, String>> settings, String productionInstead) {
        return new PolicyEntry(
                name,
                description,
                preferred -> copy(settings.apply(preferred)),
                true,
                false,
                Objects.requireNonNull(productionInstead, "productionInstead"));
    }

    /**
     * A policy that differs from Kafka's defaults in something the engine has no key for (a follower replication
     * throttle): the simulator models it; the agent, and so the load test, cannot run it.
     */
    static PolicyEntry modelOnly(String name, String description) {
        return new PolicyEntry(name, description, preferred -> Map.of(), false, true, null);
    }

    private static Map<ConfigKey, String> copy(Map<ConfigKey, String> settings) {
        return settings.isEmpty() ? Map.of() : Collections.unmodifiableMap(new EnumMap<>(settings));
    }

    /** The name as written in scenarios, on the command line and in reports. */
    public String name() {
        return name;
    }

    /** One line for listings and reports. */
    public String description() {
        return description;
    }

    /** Whether {@link #settings(int)} depends on its argument. */
    public boolean sizedByPreferredPartitions() {
        return sizedByPreferredPartitions;
    }

    /** Whether only the simulator can run it (the difference is no engine key). */
    public boolean modelOnly() {
        return modelOnly;
    }

    /** Whether it is a production preset: fixed settings that the agent can run. */
    public boolean productionPreset() {
        return !sizedByPreferredPartitions && !modelOnly;
    }

    /** For a policy sized to a load test: the production preset to use instead on a real cluster. */
    public Optional<String> productionInstead() {
        return Optional.ofNullable(productionInstead);
    }

    /**
     * The keys this policy sets, in {@link ConfigKey} order; empty for Kafka's defaults.
     *
     * @param preferredPartitions the restarted broker's preferred-partition count (ignored unless
     *                            {@link #sizedByPreferredPartitions()})
     */
    public Map<ConfigKey, String> settings(int preferredPartitions) {
        return settings.apply(preferredPartitions);
    }

    /** {@link #settings(int)} by key name, as {@code PacerConfig.fromMap} and a scenario's policy take them. */
    public Map<String, String> settingsByKey(int preferredPartitions) {
        Map<String, String> out = new LinkedHashMap<>();
        settings(preferredPartitions).forEach((k, v) -> out.put(k.key(), v));
        return out;
    }

    @Override
    public String toString() {
        return name;
    }
}
