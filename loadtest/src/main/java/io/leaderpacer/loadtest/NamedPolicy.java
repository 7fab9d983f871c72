package io.leaderpacer.loadtest;

import io.leaderpacer.engine.config.ConfigException;
import io.leaderpacer.engine.config.PacerConfig;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A policy a load test compares: a name, the agent's configuration, and where it came from.
 *
 * <p>Two are built in, scaled from the seed to a run of minutes instead of hours: {@code immediate} (Kafka's behaviour:
 * cap 1000, no throttle) and {@code wait-for-sync} (the seed's example: threshold 5 %, the preferred partitions
 * returned in about 25 capped batches, as the seed's 5,000 in batches of 200). Both use the same check interval, so
 * that they differ only in the policy. Any key can be overridden on the command line: {@code name:key=value,...}.
 *
 * @param name        as reports show it
 * @param config      what the agent runs with
 * @param description one line for the report
 */
public record NamedPolicy(String name, PacerConfig config, String description) {

    /** The policy others are compared with, when it runs. */
    public static final String BASELINE = "immediate";
    /** Names of the built-in policies. */
    public static final List<String> BUILT_IN = List.of(BASELINE, "wait-for-sync");

    public NamedPolicy {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(config, "config");
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
        int colon = text.indexOf(':');
        String name = colon < 0 ? text : text.substring(0, colon).strip();
        Map<String, String> overrides = new LinkedHashMap<>();
        if (colon >= 0) {
            for (String pair : text.substring(colon + 1).split(",")) {
                int eq = pair.indexOf('=');
                if (eq <= 0) {
                    throw new IllegalArgumentException("policy '" + name + "': expected key=value, got '" + pair.strip() + "'");
                }
                overrides.put(pair.substring(0, eq).strip(), pair.substring(eq + 1).strip());
            }
        }
        Map<String, String> base = builtIn(name, preferredPartitions, checkIntervalSeconds);
        if (base == null) {
            throw new IllegalArgumentException("unknown policy '" + name + "': the built-in ones are "
                    + String.join(", ", BUILT_IN) + " (add settings with NAME:key=value,...)");
        }
        base.putAll(overrides);
        try {
            PacerConfig config = PacerConfig.fromMap(base);
            return new NamedPolicy(colon < 0 ? name : text, config, describe(config));
        } catch (ConfigException e) {
            throw new IllegalArgumentException("policy '" + name + "': " + e.getMessage(), e);
        }
    }

    private static Map<String, String> builtIn(String name, int preferred, long checkIntervalSeconds) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("leader.imbalance.check.interval.seconds", Long.toString(checkIntervalSeconds));
        switch (name) {
            case BASELINE -> m.put("leader.imbalance.election.algorithm", "immediate");
            case "wait-for-sync" -> {
                m.put("leader.imbalance.election.algorithm", "wait-for-sync");
                m.put("leader.imbalance.election.wait.for.sync.threshold.percent", "5");
                m.put("leader.imbalance.election.max.per.run", Integer.toString(Math.max(1, (preferred + 24) / 25)));
                m.put("leader.imbalance.election.throttle.interval.ms", "2000");
                m.put("leader.imbalance.election.wait.for.sync.max.wait.ms", "300000");
            }
            default -> {
                return null;
            }
        }
        return m;
    }

    /** The settings that differ from Kafka's defaults, plus the algorithm, as {@code key=value} pairs. */
    static String describe(PacerConfig config) {
        Map<String, String> defaults = PacerConfig.defaults().toMap();
        StringBuilder sb = new StringBuilder();
        config.toMap().forEach((k, v) -> {
            if (!v.equals(defaults.get(k)) || k.equals("leader.imbalance.election.algorithm")) {
                sb.append(sb.length() == 0 ? "" : " ").append(k.replace("leader.imbalance.", "")).append('=').append(v);
            }
        });
        return sb.toString();
    }
}
