package io.leaderpacer.agent.core;

import java.util.Map;

/**
 * Where the agent finds the dynamic, cluster-wide policy overrides that sit on top of its properties file.
 *
 * <p>Why it exists: KIP-1358 wants the policy keys to be dynamic and cluster-wide, but Kafka masks unknown keys
 * in its dynamic broker config, so the agent keeps them in storage of its own (for example a compacted topic).
 * The control loop stays independent of that storage by reading it only through this interface.
 *
 * <p>Contract: {@link #overrides()} returns the latest override of every key that has one (key to value; a key
 * whose override was deleted is simply absent). The agent applies {@code fileConfig.withUpdates(overrides)} on
 * each run; when a stored value is invalid it logs the error and keeps the previous effective configuration,
 * so nothing is half-applied.
 */
@FunctionalInterface
public interface ConfigSource {

    /** A source with no overrides: the properties file alone decides. */
    ConfigSource NONE = Map::of;

    /**
     * Reads the current overrides.
     *
     * @return the latest value per overridden policy key; never null, empty when nothing is overridden
     * @throws Exception when the storage cannot be read; the agent then keeps its previous configuration
     */
    Map<String, String> overrides() throws Exception;
}
