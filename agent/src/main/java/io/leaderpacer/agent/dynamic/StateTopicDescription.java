package io.leaderpacer.agent.dynamic;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * What the safety check read about an existing state topic and its cluster: the replicas of each partition, the
 * topic's effective configuration (its own overrides and the brokers' defaults) and the live brokers.
 *
 * <p>Why a value: the rules of {@link StateTopicSafety#problems(StateTopicDescription)} are a pure function of it,
 * so every rule is tested by hand-worked cases without a cluster, and the cluster test only checks the reading.
 *
 * @param topic           the topic's name
 * @param replicas        replica list of each partition, by partition number
 * @param configs         the topic's effective configuration values by key (missing keys take Kafka's defaults)
 * @param brokers         ids of the live brokers
 * @param bootstrapServer a broker's {@code host:port}, to write ready-to-run fix commands
 */
public record StateTopicDescription(
        String topic,
        Map<Integer, List<Integer>> replicas,
        Map<String, String> configs,
        List<Integer> brokers,
        String bootstrapServer) {

    public StateTopicDescription {
        Objects.requireNonNull(topic, "topic");
        Objects.requireNonNull(bootstrapServer, "bootstrapServer");
        Map<Integer, List<Integer>> copy = new TreeMap<>();
        replicas.forEach((p, r) -> copy.put(p, List.copyOf(r)));
        replicas = Collections.unmodifiableMap(copy);
        configs = Map.copyOf(configs);
        List<Integer> sorted = new ArrayList<>(brokers);
        Collections.sort(sorted);
        brokers = List.copyOf(sorted);
    }

    /** The smallest replica count of any partition (the topic's replication factor when all agree). */
    public int replicationFactor() {
        return replicas.values().stream().mapToInt(List::size).min().orElse(0);
    }

    /** A configuration value, or {@code fallback} (Kafka's default) when it was not reported. */
    public String config(String key, String fallback) {
        String v = configs.get(key);
        return v == null ? fallback : v;
    }
}
