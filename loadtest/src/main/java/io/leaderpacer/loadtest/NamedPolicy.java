package io.leaderpacer.loadtest;

import io.leaderpacer.engine.config.ConfigException;
import io.leaderpacer.engine.config.ConfigKey;
import io.leaderpacer.engine.config.PacerConfig;
import io.leaderpacer.engine.policy.PolicyEntry;
import io.leaderpacer.engine.policy.PolicyRegistry;
import io.leaderpacer.engine.policy.UnknownPolicyException;
import io.leaderpacer.report.policy.LoadTestPolicies;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A policy a load test compares: a name, the agent's configuration, and where it came from.
 *
 * <p>Every name comes from {@link LoadTestPolicies} (the engine's {@link PolicyRegistry} plus the policies sized to a
 * load test), the same names the simulator and the docs use. The
 * two a load test runs by default are {@code immediate} (Kafka's behaviour: cap 1000, no throttle) and
 * {@code recommended-paced} (the recommended gate with the catch-up paced, producers first: the best trade-off the
 * real load test measured, docs/evidence/RECOVERY-SPEED.md; 10 partitions a run, 1 s apart, whatever the broker's
 * size). KIP-1358's own example, scaled from hours to minutes, is {@code kip-example-scaled}, the one policy sized
 * by the restarted broker's preferred partitions. Every policy runs with the
 * run's check interval, so that policies differ only in the policy. Any key can be overridden on the command line:
 * {@code name:key=value,...}, and the result named for the reports with {@code ... as LABEL} (e.g.
 * {@code recommended:leader.imbalance.catch.up.pacing=static as paced}), since a policy with settings is a long
 * name for a table.
 *
 * <p>A key that starts with {@code broker.} is a Kafka broker setting the round runs under, not the agent's
 * ({@code recommended-paced:broker.num.replica.fetchers=2 as paced-2-fetchers}): {@link RoundBrokerSettings} sets it
 * as a cluster-wide dynamic default before the round and puts back what was there after it. Why: some of what the
 * catch-up costs is the brokers' own settings, and comparing them side by side, round by round, needs them per policy.
 * A key that starts with {@code restarted.} is a static setting of the restarted broker alone, written into its
 * {@code server.properties} for the round's restart ({@code recommended-paced:restarted.replica.fetch.max.bytes=262144}):
 * static settings (fetch sizes) can change only with a restart, and the round restarts that broker anyway; the next
 * round starts it with its own settings. Only the load test's own cluster can.
 *
 * @param name           as reports show it
 * @param config         what the agent runs with
 * @param brokerSettings Kafka broker settings (without the {@code broker.} prefix) the round runs under; may be empty
 * @param restartedSettings static settings (without the {@code restarted.} prefix) the restarted broker starts with in
 *                       the round; may be empty
 * @param description    one line for the report
 */
public record NamedPolicy(
        String name,
        PacerConfig config,
        Map<String, String> brokerSettings,
        Map<String, String> restartedSettings,
        String description) {

    /** The policy others are compared with, when it runs (the baseline). */
    public static final String BASELINE = PolicyRegistry.IMMEDIATE;
    /** The prefix of a policy key that is a broker setting for the round. */
    public static final String BROKER_PREFIX = "broker.";
    /** The prefix of a policy key that is a static setting of the restarted broker for the round. */
    public static final String RESTARTED_PREFIX = "restarted.";
    /** What a label may hold: it names a policy in tables and CSV files. */
    private static final Pattern LABEL = Pattern.compile("[a-zA-Z0-9._-]{1,64}");

    /** The policies a load test compares when none is named. */
    public static final List<String> DEFAULTS = List.of(BASELINE, PolicyRegistry.RECOMMENDED_PACED);

    public NamedPolicy {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(config, "config");
        brokerSettings = Collections.unmodifiableMap(new LinkedHashMap<>(brokerSettings));
        restartedSettings = Collections.unmodifiableMap(new LinkedHashMap<>(restartedSettings));
        Objects.requireNonNull(description, "description");
    }

    /**
     * Parses {@code NAME} or {@code NAME:key=value,key=value} for a run where the restarted broker is preferred for
     * {@code preferredPartitions} partitions.
     *
     * @throws IllegalArgumentException naming the policy and what is wrong
     */
    public static NamedPolicy parse(String spec, int preferredPartitions, long checkIntervalSeconds) {
        String text = spec.strip();
        String label = null;
        int as = text.lastIndexOf(" as ");
        if (as >= 0) {
            label = text.substring(as + 4).strip();
            text = text.substring(0, as).strip();
            if (!LABEL.matcher(label).matches()) {
                throw new IllegalArgumentException("policy label '" + label + "' must be 1 to 64 of a-z A-Z 0-9 . _ -");
            }
        }
        int colon = text.indexOf(':');
        String name = colon < 0 ? text : text.substring(0, colon).strip();
        Settings settings = colon < 0 ? new Settings() : Settings.parse(name, text.substring(colon + 1));
        PolicyEntry entry = entry(name);
        Map<String, String> base = new LinkedHashMap<>();
        base.put(ConfigKey.CHECK_INTERVAL_SECONDS.key(), Long.toString(checkIntervalSeconds));
        base.putAll(entry.settingsByKey(preferredPartitions));
        base.putAll(settings.overrides());
        try {
            PacerConfig config = PacerConfig.fromMap(base);
            return new NamedPolicy(
                    label != null ? label : colon < 0 ? name : text,
                    config,
                    settings.brokers(),
                    settings.restarted(),
                    describe(config)
                            + listed(" | brokers:", settings.brokers())
                            + listed(" | restarted broker:", settings.restarted()));
        } catch (ConfigException e) {
            throw new IllegalArgumentException("policy '" + name + "': " + e.getMessage(), e);
        }
    }

    /**
     * A policy's {@code key=value} list, by kind: the agent's keys, every broker's settings ({@code broker.} keys) and
     * the restarted broker's static ones ({@code restarted.} keys).
     */
    private record Settings(Map<String, String> overrides, Map<String, String> brokers, Map<String, String> restarted) {

        Settings() {
            this(new LinkedHashMap<>(), new LinkedHashMap<>(), new LinkedHashMap<>());
        }

        static Settings parse(String name, String list) {
            Settings out = new Settings();
            for (String pair : list.split(",")) {
                int eq = pair.indexOf('=');
                if (eq <= 0) {
                    throw new IllegalArgumentException(
                            "policy '" + name + "': expected key=value, got '" + pair.strip() + "'");
                }
                String key = pair.substring(0, eq).strip();
                String value = pair.substring(eq + 1).strip();
                if (key.startsWith(BROKER_PREFIX)) {
                    String brokerKey = key.substring(BROKER_PREFIX.length());
                    if (brokerKey.isEmpty() || value.isEmpty()) {
                        throw new IllegalArgumentException("policy '" + name + "': broker setting '" + pair.strip()
                                + "' needs a key and a value, e.g. broker.num.replica.fetchers=2");
                    }
                    out.brokers().put(brokerKey, value);
                } else if (key.startsWith(RESTARTED_PREFIX)) {
                    String staticKey = key.substring(RESTARTED_PREFIX.length());
                    if (staticKey.isEmpty() || value.isEmpty()) {
                        throw new IllegalArgumentException(
                                "policy '" + name + "': restarted-broker setting '" + pair.strip()
                                        + "' needs a key and a value, e.g. restarted.replica.fetch.max.bytes=262144");
                    }
                    out.restarted().put(staticKey, value);
                } else {
                    out.overrides().put(key, value);
                }
            }
            return out;
        }
    }

    /** The policy named, one the load test can run. */
    private static PolicyEntry entry(String name) {
        PolicyEntry entry;
        try {
            entry = LoadTestPolicies.named(name);
        } catch (UnknownPolicyException e) {
            throw new IllegalArgumentException(e.getMessage() + " (add settings with NAME:key=value,...)", e);
        }
        if (entry.modelOnly()) {
            throw new IllegalArgumentException(
                    "policy '" + name + "' is modelled by the simulator only: " + entry.description());
        }
        return entry;
    }

    /** {@code heading} and the settings as {@code key=value}, space-separated; nothing for none. */
    private static String listed(String heading, Map<String, String> settings) {
        if (settings.isEmpty()) {
            return "";
        }
        StringBuilder sb = new StringBuilder(heading);
        settings.forEach((k, v) -> sb.append(' ').append(k).append('=').append(v));
        return sb.toString();
    }

    /** The settings that differ from Kafka's defaults, plus the algorithm, as {@code key=value} pairs. */
    static String describe(PacerConfig config) {
        Map<String, String> defaults = PacerConfig.defaults().toMap();
        StringBuilder sb = new StringBuilder();
        config.toMap().forEach((k, v) -> {
            if (!v.equals(defaults.get(k)) || k.equals(ConfigKey.ALGORITHM.key())) {
                sb.append(sb.length() == 0 ? "" : " ")
                        .append(k.replace("leader.imbalance.", ""))
                        .append('=')
                        .append(v);
            }
        });
        return sb.toString();
    }
}
