package io.leaderpacer.agent.config;

import io.leaderpacer.engine.config.ConfigException;
import io.leaderpacer.engine.config.ConfigKey;
import io.leaderpacer.engine.config.NamedKey;
import io.leaderpacer.engine.config.PacerConfig;
import io.leaderpacer.engine.config.Utf8Text;

import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;
import java.util.function.BiFunction;

import static io.leaderpacer.engine.config.ConfigException.printable;
import static io.leaderpacer.engine.config.KeyCheck.require;

/**
 * Reads and validates the agent's properties file; {@link #load()} can be called on every run.
 *
 * <p>Why re-read: the policy keys in the file are the defaults under the dynamic overrides and may be edited
 * while the agent runs; the next run must pick the edit up, and a broken edit must be reported and ignored
 * (the caller keeps its previous configuration) rather than stop the agent.
 *
 * <p>Rules: {@code bootstrap.servers} is required; policy keys are validated by the engine's rules; a key
 * under a policy prefix ({@code leader.imbalance.}, {@code preferred.leader.}) or {@code pacer.} that is not
 * known is rejected (a typo must not fall back to a default silently); every other key is a client property.
 */
public final class AgentPropertiesFile {

    /** Prefixes reserved for policy keys: an unknown key under them is a typo, not a client property. */
    private static final String[] POLICY_PREFIXES = {"leader.imbalance.", "preferred.leader."};

    private static final String AGENT_PREFIX = "pacer.";

    /** The file. */
    private final Path path;

    public AgentPropertiesFile(Path path) {
        this.path = Objects.requireNonNull(path, "path");
    }

    public Path path() {
        return path;
    }

    /**
     * Reads and validates the file now.
     *
     * @throws AgentConfigException naming the file and, for a bad value, the key, value and allowed range
     */
    public AgentProperties load() {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(path);
        } catch (NoSuchFileException e) {
            throw new AgentConfigException(path + ": file not found");
        } catch (IOException e) {
            throw new AgentConfigException(path + ": cannot read the file (" + e.getMessage() + ")", e);
        }
        return parse(path.toString(), utf8(path.toString(), bytes));
    }

    /** The file's text; bytes that are not UTF-8 are an error naming the file, the first bad byte and its line. */
    private static String utf8(String source, byte[] bytes) {
        try {
            return Utf8Text.decode(bytes);
        } catch (Utf8Text.NotUtf8Exception e) {
            throw new AgentConfigException(source + ": " + e.getMessage());
        }
    }

    /** Validates properties given as text, {@code source} naming where they came from in messages. */
    public static AgentProperties parse(String source, String text) {
        Properties raw = new Properties();
        try (Reader reader = new StringReader(text)) {
            raw.load(reader);
        } catch (IOException | IllegalArgumentException e) {
            throw new AgentConfigException(
                    source + ": not a valid properties file (" + printable(e.getMessage()) + badEscapeLine(text) + ")",
                    e);
        }
        Map<String, String> all = new TreeMap<>();
        raw.stringPropertyNames()
                .forEach(k -> all.put(k.trim(), raw.getProperty(k).trim()));
        return fromMap(source, all);
    }

    /** Validates properties given as a map (used by tests and embedders). */
    public static AgentProperties fromMap(String source, Map<String, String> all) {
        Map<String, String> client = new LinkedHashMap<>();
        Map<String, String> policy = new LinkedHashMap<>();
        Map<AgentKey, String> agent = new LinkedHashMap<>();
        List<String> agentKeys = NamedKey.names(AgentKey.class);
        for (Map.Entry<String, String> e : new TreeMap<>(all).entrySet()) {
            String key = e.getKey();
            Optional<AgentKey> agentKey = NamedKey.forName(AgentKey.class, key);
            if (ConfigKey.forName(key) != null) {
                policy.put(key, e.getValue());
            } else if (agentKey.isPresent()) {
                agent.put(agentKey.get(), e.getValue());
            } else if (hasPolicyPrefix(key)) {
                throw new AgentConfigException(source + ": unknown policy key '" + printable(key) + "'"
                        + ClosestKey.suggestion(key, ConfigKey.names()) + "; known policy keys: "
                        + String.join(", ", ConfigKey.names()));
            } else if (key.startsWith(AGENT_PREFIX)) {
                throw new AgentConfigException(source + ": unknown agent key '" + printable(key) + "'"
                        + ClosestKey.suggestion(key, agentKeys) + "; known agent keys: "
                        + String.join(", ", agentKeys));
            } else {
                client.put(key, e.getValue());
            }
        }
        String bootstrap = client.get("bootstrap.servers");
        if (bootstrap == null || bootstrap.isBlank()) {
            throw new AgentConfigException(
                    source + ": 'bootstrap.servers' is required (e.g. bootstrap.servers=broker1:9092)");
        }
        PacerConfig config;
        try {
            config = PacerConfig.fromMap(policy);
        } catch (ConfigException e) {
            throw new AgentConfigException(source + ": " + e.getMessage(), e);
        }
        return new AgentProperties(
                source,
                client,
                config,
                parseBoolean(source, AgentKey.HTTP_ENABLED, agent),
                value(AgentKey.HTTP_HOST, agent),
                (int) parseLong(source, AgentKey.HTTP_PORT, agent, 0, 65_535),
                Duration.ofMillis(parseLong(source, AgentKey.REQUEST_TIMEOUT_MS, agent, 100, Integer.MAX_VALUE)),
                (int) parseLong(source, AgentKey.DESCRIBE_BATCH_TOPICS, agent, 1, 100_000),
                groupId(source, agent),
                Duration.ofMillis(parseLong(source, AgentKey.SESSION_TIMEOUT_MS, agent, 6_000, 300_000)),
                value(AgentKey.INSTANCE_ID, agent));
    }

    /** The group id: also the prefix of a transactional id and of ACL patterns, so kept to topic-name characters. */
    private static String groupId(String source, Map<AgentKey, String> agent) {
        String v = value(AgentKey.GROUP_ID, agent);
        require(v.length() <= 200 && v.matches("[A-Za-z0-9._-]+"), AgentKey.GROUP_ID, v, invalidIn(source));
        return v;
    }

    /**
     * Where the first malformed {@code \\uXXXX} escape is (the properties reader does not say), or nothing. Lines
     * whose first visible character starts a comment are skipped, as the reader skips them.
     */
    private static String badEscapeLine(String text) {
        String[] lines = text.split("\r\n|\r|\n", -1);
        for (int n = 0; n < lines.length; n++) {
            String line = lines[n].stripLeading();
            if (line.startsWith("#") || line.startsWith("!")) {
                continue;
            }
            for (int i = 0; i < line.length() - 1; i++) {
                if (line.charAt(i) != '\\') {
                    continue;
                }
                if (line.charAt(i + 1) == 'u'
                        && !line.substring(i + 2, Math.min(line.length(), i + 6))
                                .matches("[0-9a-fA-F]{4}")) {
                    return " on line " + (n + 1);
                }
                i++;
            }
        }
        return "";
    }

    private static boolean hasPolicyPrefix(String key) {
        for (String prefix : POLICY_PREFIXES) {
            if (key.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    private static String value(AgentKey key, Map<AgentKey, String> agent) {
        String v = agent.get(key);
        return v == null || v.isBlank() ? key.defaultValue() : v;
    }

    private static boolean parseBoolean(String source, AgentKey key, Map<AgentKey, String> agent) {
        String v = value(key, agent);
        require(v.equalsIgnoreCase("true") || v.equalsIgnoreCase("false"), key, v, invalidIn(source));
        return Boolean.parseBoolean(v);
    }

    private static long parseLong(String source, AgentKey key, Map<AgentKey, String> agent, long min, long max) {
        String v = value(key, agent);
        try {
            long n = Long.parseLong(v);
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw invalid(source, key, v);
    }

    /** The error for a value its key does not allow, as {@link #invalid(String, AgentKey, String)} words it. */
    private static BiFunction<AgentKey, String, AgentConfigException> invalidIn(String source) {
        return (key, value) -> invalid(source, key, value);
    }

    private static AgentConfigException invalid(String source, AgentKey key, String value) {
        return new AgentConfigException(source + ": invalid value '" + printable(value) + "' for '" + key.key()
                + "': must be " + key.allowed());
    }
}
