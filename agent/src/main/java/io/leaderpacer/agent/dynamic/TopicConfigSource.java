package io.leaderpacer.agent.dynamic;

import io.leaderpacer.agent.core.ConfigSource;
import io.leaderpacer.engine.config.ConfigException;
import io.leaderpacer.engine.config.ConfigKey;
import io.leaderpacer.engine.config.PacerConfig;
import org.apache.kafka.clients.admin.Admin;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

/**
 * The cluster-wide dynamic policy overrides, kept in a compacted topic of the agent's own (default
 * {@value #DEFAULT_TOPIC}): record key = policy key, value = its value, tombstone = override deleted.
 *
 * <p>Why a topic of our own: Kafka accepts unknown keys in its dynamic broker config but masks them on describe,
 * so no Admin client can read them back. Every agent reads this topic on every run ({@link #overrides()}) and
 * {@code pacer config} writes it ({@link #alter}, {@link #delete}); values in an agent's properties file are the
 * defaults under these overrides.
 *
 * <p>Nothing invalid is written: {@link #alter} validates every value with the engine's own rules before writing
 * any. If a bad value reaches the topic by other means, {@link #overrides()} still returns it, so the agent's load
 * rejects it with the key, value and allowed range and keeps its previous configuration; {@link #describe()} shows
 * it with the problem. Keys this version does not know (written by a newer agent) are left out of
 * {@link #overrides()} with a warning, so they cannot block the keys it does know.
 */
public final class TopicConfigSource implements ConfigSource, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(TopicConfigSource.class);

    /** The config topic's default name. */
    public static final String DEFAULT_TOPIC = "_leader-pacer-config";

    /** The storage; owned (closed) by this source. */
    private final CompactedTopic topic;
    /** Unknown keys already warned about, so a stray key is logged once, not every run. */
    private final Set<String> warnedUnknown = Collections.synchronizedSet(new HashSet<>());

    public TopicConfigSource(CompactedTopic topic) {
        this.topic = Objects.requireNonNull(topic, "topic");
    }

    /**
     * A source on the default topic, reading and writing with the given client settings.
     *
     * @param admin            the caller's Admin client (not closed by the source)
     * @param clientProperties bootstrap servers and security settings; other keys are ignored
     */
    public static TopicConfigSource onDefaultTopic(Admin admin, Map<String, ?> clientProperties) {
        return new TopicConfigSource(
                new CompactedTopic(admin, clientProperties, DEFAULT_TOPIC, Duration.ofSeconds(30)));
    }

    public String topicName() {
        return topic.name();
    }

    /** The latest dynamic value of every known policy key that has one. */
    @Override
    public Map<String, String> overrides() throws InterruptedException, TimeoutException {
        Map<String, String> out = new LinkedHashMap<>();
        topic.read().forEach((key, value) -> {
            if (ConfigKey.forName(key) != null) {
                out.put(key, value);
            } else if (warnedUnknown.add(key)) {
                LOG.warn(
                        "Ignoring unknown key '{}' in config topic {} (written by another version?); known keys: {}",
                        key,
                        topic.name(),
                        ConfigKey.names());
            }
        });
        return Collections.unmodifiableMap(out);
    }

    /**
     * Sets dynamic overrides. Every key and value is validated first; if any is invalid, nothing is written.
     *
     * @param updates key to value; an empty string is a value (for the deprioritized list: "no broker"), to remove
     *                an override use {@link #delete}
     * @return the values as stored (canonical form, e.g. a sorted broker list)
     * @throws ConfigException naming the key, the value and the allowed range, or an unknown key
     */
    public Map<String, String> alter(Map<String, String> updates)
            throws InterruptedException, ExecutionException, TimeoutException {
        if (updates.isEmpty()) {
            throw new IllegalArgumentException("nothing to alter: give at least one key=value");
        }
        return update(updates, Set.of()).set();
    }

    /**
     * Removes dynamic overrides, so the agents fall back to their properties file or the default. A key that is
     * not overridden is left as it is.
     *
     * @return the keys that were overridden and now are not
     * @throws ConfigException for a key that is neither a policy key nor present in the topic
     */
    public Set<String> delete(Set<String> keys) throws InterruptedException, ExecutionException, TimeoutException {
        return update(Map.of(), keys).deleted();
    }

    /**
     * Sets some overrides and removes others in one write. Everything is validated before anything is written:
     * unknown keys, invalid values (with the engine's own rules), a key both set and deleted.
     *
     * @throws ConfigException naming the key, the value and the allowed range, or an unknown key
     */
    public ConfigChange update(Map<String, String> set, Set<String> delete)
            throws InterruptedException, ExecutionException, TimeoutException {
        for (Map.Entry<String, String> e : set.entrySet()) {
            if (e.getValue() == null) {
                throw new ConfigException(
                        e.getKey(), null, "a value is required (to remove an override, delete the key)");
            }
            if (delete.contains(e.getKey())) {
                throw new IllegalArgumentException("key '" + e.getKey() + "' is both added and deleted");
            }
        }
        PacerConfig validated = PacerConfig.defaults().withUpdates(set);
        Map<String, String> current = delete.isEmpty() ? Map.of() : topic.read();
        for (String k : delete) {
            if (ConfigKey.forName(k) == null && !current.containsKey(k)) {
                throw ConfigException.unknownKey(k, ConfigKey.names());
            }
        }
        Map<String, String> records = new LinkedHashMap<>();
        set.keySet().forEach(k -> records.put(k, validated.valueOf(ConfigKey.forName(k))));
        Set<String> deleted = new LinkedHashSet<>();
        for (String k : delete) {
            if (current.containsKey(k)) {
                records.put(k, null);
                deleted.add(k);
            }
        }
        topic.write(records);
        Map<String, String> stored = new LinkedHashMap<>(records);
        deleted.forEach(stored::remove);
        return new ConfigChange(stored, deleted);
    }

    /**
     * Every policy key with its effective cluster-wide value and where it comes from, in the engine's key order,
     * followed by any unknown keys found in the topic.
     */
    public List<DescribedConfig> describe() throws InterruptedException, TimeoutException {
        Map<String, String> stored = topic.read();
        List<DescribedConfig> out = new ArrayList<>();
        for (ConfigKey k : ConfigKey.values()) {
            String value = stored.get(k.key());
            if (value == null) {
                out.add(new DescribedConfig(
                        k.key(), k.defaultValue(), ConfigOrigin.DEFAULT, k.doc(), Optional.empty()));
                continue;
            }
            Optional<String> problem;
            try {
                PacerConfig.defaults().with(k.key(), value);
                problem = Optional.empty();
            } catch (ConfigException e) {
                problem = Optional.of(e.getMessage() + "; agents keep their previous value");
            }
            out.add(new DescribedConfig(k.key(), value, ConfigOrigin.DYNAMIC, k.doc(), problem));
        }
        stored.forEach((key, value) -> {
            if (ConfigKey.forName(key) == null) {
                out.add(new DescribedConfig(
                        key,
                        value,
                        ConfigOrigin.DYNAMIC,
                        "",
                        Optional.of("unknown key, ignored by this version of the agent")));
            }
        });
        return out;
    }

    @Override
    public void close() {
        topic.close();
    }
}
