package io.leaderpacer.engine.config;

import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.SortedSet;
import java.util.StringJoiner;
import java.util.TreeSet;

import static io.leaderpacer.engine.config.KeyCheck.require;

/**
 * The policy's settings for one run, validated.
 *
 * <p>Immutable: a dynamic change is a new value from {@link #withUpdates(Map)}, which validates
 * every update before applying any, so a bad value leaves nothing half-applied.
 *
 * @param checkIntervalSeconds  period when a run did not hit the cap
 * @param algorithm             immediate or wait-for-sync
 * @param thresholdPercent      gate threshold, 0..100
 * @param maxWaitMs             max-wait escape; 0 = never
 * @param maxPerRun             election cap per run
 * @param throttleIntervalMs    delay after a capped run; 0 = immediate reschedule
 * @param deprioritizedBrokers  KIP-491 list, ascending
 * @param gateDenominator       default or literal gate ratio
 * @param maxWaitClock          default or literal max-wait clock
 * @param recheck               the re-check schedule while gated and the hysteresis time floor (both off by
 *                              default: KIP-1358's semantics)
 * @param pacing                catch-up pacing (off by default), the agent's extension
 */
public record PacerConfig(
        long checkIntervalSeconds,
        ElectionAlgorithm algorithm,
        double thresholdPercent,
        long maxWaitMs,
        int maxPerRun,
        long throttleIntervalMs,
        SortedSet<Integer> deprioritizedBrokers,
        GateDenominator gateDenominator,
        MaxWaitClock maxWaitClock,
        GateRecheck recheck,
        CatchUpPacing pacing) {

    /** Every key at the default its {@link ConfigKey} declares: the one place a default is written. */
    private static final PacerConfig DEFAULTS = parse(keyDefaults());

    public PacerConfig {
        Objects.requireNonNull(algorithm, "algorithm");
        Objects.requireNonNull(gateDenominator, "gateDenominator");
        Objects.requireNonNull(maxWaitClock, "maxWaitClock");
        Objects.requireNonNull(recheck, "recheck");
        Objects.requireNonNull(pacing, "pacing");
        require(checkIntervalSeconds >= 1, ConfigKey.CHECK_INTERVAL_SECONDS, Long.toString(checkIntervalSeconds));
        require(
                !Double.isNaN(thresholdPercent) && thresholdPercent >= 0 && thresholdPercent <= 100,
                ConfigKey.THRESHOLD_PERCENT,
                Double.toString(thresholdPercent));
        // -0.0 would print as "0" yet compare unequal to 0: one threshold, one value.
        thresholdPercent = thresholdPercent + 0.0;
        require(maxWaitMs >= 0, ConfigKey.MAX_WAIT_MS, Long.toString(maxWaitMs));
        require(maxPerRun >= 1, ConfigKey.MAX_PER_RUN, Integer.toString(maxPerRun));
        require(throttleIntervalMs >= 0, ConfigKey.THROTTLE_INTERVAL_MS, Long.toString(throttleIntervalMs));
        TreeSet<Integer> list = new TreeSet<>(Objects.requireNonNull(deprioritizedBrokers, "deprioritizedBrokers"));
        for (int b : list) {
            require(b >= 0, ConfigKey.DEPRIORITIZED_LIST, list.toString());
        }
        deprioritizedBrokers = Collections.unmodifiableSortedSet(list);
    }

    /** Kafka's behaviour today: immediate, cap 1000, immediate reschedule, no list. */
    public static PacerConfig defaults() {
        return DEFAULTS;
    }

    /**
     * Defaults overridden by the given keys. Every key must be known; see {@link #withUpdates(Map)}.
     */
    public static PacerConfig fromMap(Map<String, String> values) {
        return DEFAULTS.withUpdates(values);
    }

    /**
     * A new configuration with the given keys changed; a {@code null} value resets that key to
     * its default (as {@code --delete-config} does). All values are validated before any is
     * applied: on a {@link ConfigException} this value is untouched and nothing else changes.
     *
     * @throws ConfigException naming the key, the value and the allowed range, or an unknown key
     */
    public PacerConfig withUpdates(Map<String, String> updates) {
        Map<ConfigKey, String> current = new LinkedHashMap<>();
        for (ConfigKey k : ConfigKey.values()) {
            current.put(k, valueOf(k));
        }
        for (Map.Entry<String, String> e : updates.entrySet()) {
            ConfigKey k = ConfigKey.forName(e.getKey());
            if (k == null) {
                throw ConfigException.unknownKey(e.getKey(), ConfigKey.names());
            }
            current.put(
                    k, e.getValue() == null ? k.defaultValue() : e.getValue().trim());
        }
        return parse(current);
    }

    private static Map<ConfigKey, String> keyDefaults() {
        Map<ConfigKey, String> defaults = new LinkedHashMap<>();
        for (ConfigKey k : ConfigKey.values()) {
            defaults.put(k, k.defaultValue());
        }
        return defaults;
    }

    /** Every key's value parsed and checked; {@code current} holds every key. */
    private static PacerConfig parse(Map<ConfigKey, String> current) {
        int maxPerRun =
                (int) parseLongInRange(ConfigKey.MAX_PER_RUN, current.get(ConfigKey.MAX_PER_RUN), 1, Integer.MAX_VALUE);
        long throttleIntervalMs = parseLong(ConfigKey.THROTTLE_INTERVAL_MS, current, 0);
        // Parsed once: the election's pace and the gate's release are also what a deadline counts for leadership's
        // return.
        GateRecheck recheck = new GateRecheck(
                parseLong(ConfigKey.RECHECK_INTERVAL_MS, current, 0),
                parseLong(ConfigKey.HYSTERESIS_MIN_MS, current, 0));
        return new PacerConfig(
                parseLong(ConfigKey.CHECK_INTERVAL_SECONDS, current, 1),
                parseChoice(ConfigKey.ALGORITHM, ElectionAlgorithm.class, current.get(ConfigKey.ALGORITHM)),
                parseThreshold(current.get(ConfigKey.THRESHOLD_PERCENT)),
                parseLong(ConfigKey.MAX_WAIT_MS, current, 0),
                maxPerRun,
                throttleIntervalMs,
                parseBrokerList(current.get(ConfigKey.DEPRIORITIZED_LIST)),
                parseChoice(ConfigKey.GATE_DENOMINATOR, GateDenominator.class, current.get(ConfigKey.GATE_DENOMINATOR)),
                parseChoice(ConfigKey.MAX_WAIT_CLOCK, MaxWaitClock.class, current.get(ConfigKey.MAX_WAIT_CLOCK)),
                recheck,
                new CatchUpPacing(
                        parseChoice(
                                ConfigKey.CATCH_UP_PACING, PacingMode.class, current.get(ConfigKey.CATCH_UP_PACING)),
                        new CatchUpPacing.Rates(
                                parseLong(ConfigKey.CATCH_UP_RATE_BYTES, current, 1024),
                                parseLong(ConfigKey.CATCH_UP_MIN_RATE_BYTES, current, 1024),
                                parseLong(ConfigKey.CATCH_UP_MAX_RATE_BYTES, current, 1024)),
                        parseRatio(ConfigKey.CATCH_UP_TARGET_RATIO, current.get(ConfigKey.CATCH_UP_TARGET_RATIO)),
                        new CatchUpPacing.Timing(
                                parseLong(ConfigKey.CATCH_UP_INTERVAL_MS, current, 100),
                                parseLong(ConfigKey.CATCH_UP_MAX_WAIT_MS, current, 0),
                                new CatchUpPacing.Deadline(
                                        parseLong(ConfigKey.CATCH_UP_DEADLINE_MS, current, 0),
                                        throttleIntervalMs / maxPerRun,
                                        recheck.releaseMs())),
                        new CatchUpPacing.Scope(
                                parseLong(ConfigKey.CATCH_UP_UNTHROTTLED_LAG_BYTES, current, 0),
                                parseBoolean(
                                        ConfigKey.CATCH_UP_PREFERRED_FIRST,
                                        current.get(ConfigKey.CATCH_UP_PREFERRED_FIRST)),
                                parseLong(
                                        ConfigKey.CATCH_UP_LAG_TIME_MAX_MS,
                                        current,
                                        CatchUpPacing.Scope.LEADERS_LAG_TIME))));
    }

    /** A new configuration with one key changed (or reset, with {@code null}). */
    public PacerConfig with(String key, String value) {
        Map<String, String> one = new HashMap<>();
        one.put(key, value);
        return withUpdates(one);
    }

    /** Every key with its current value, in canonical form, in declaration order. */
    public Map<String, String> toMap() {
        Map<String, String> out = new LinkedHashMap<>();
        for (ConfigKey k : ConfigKey.values()) {
            out.put(k.key(), valueOf(k));
        }
        return Collections.unmodifiableMap(out);
    }

    /** The current value of a key in the form a properties file would hold it. */
    public String valueOf(ConfigKey key) {
        switch (key) {
            case CHECK_INTERVAL_SECONDS:
                return Long.toString(checkIntervalSeconds);
            case ALGORITHM:
                return algorithm.configValue();
            case THRESHOLD_PERCENT:
                return formatPercent(thresholdPercent);
            case MAX_WAIT_MS:
                return Long.toString(maxWaitMs);
            case MAX_PER_RUN:
                return Integer.toString(maxPerRun);
            case THROTTLE_INTERVAL_MS:
                return Long.toString(throttleIntervalMs);
            case DEPRIORITIZED_LIST: {
                StringJoiner j = new StringJoiner(",");
                deprioritizedBrokers.forEach(b -> j.add(Integer.toString(b)));
                return j.toString();
            }
            case GATE_DENOMINATOR:
                return gateDenominator.configValue();
            case MAX_WAIT_CLOCK:
                return maxWaitClock.configValue();
            case RECHECK_INTERVAL_MS:
                return Long.toString(recheck.intervalMs());
            case HYSTERESIS_MIN_MS:
                return Long.toString(recheck.hysteresisMinMs());
            case CATCH_UP_PACING:
                return pacing.mode().configValue();
            case CATCH_UP_RATE_BYTES:
                return Long.toString(pacing.rateBytes());
            case CATCH_UP_MIN_RATE_BYTES:
                return Long.toString(pacing.minRateBytes());
            case CATCH_UP_MAX_RATE_BYTES:
                return Long.toString(pacing.maxRateBytes());
            case CATCH_UP_TARGET_RATIO:
                return formatPercent(pacing.targetRatio());
            case CATCH_UP_INTERVAL_MS:
                return Long.toString(pacing.timing().intervalMs());
            case CATCH_UP_MAX_WAIT_MS:
                return Long.toString(pacing.timing().maxWaitMs());
            case CATCH_UP_UNTHROTTLED_LAG_BYTES:
                return Long.toString(pacing.unthrottledLagBytes());
            case CATCH_UP_PREFERRED_FIRST:
                return Boolean.toString(pacing.preferredFirst());
            case CATCH_UP_LAG_TIME_MAX_MS:
                return Long.toString(pacing.lagTimeMaxMs());
            case CATCH_UP_DEADLINE_MS:
                return Long.toString(pacing.deadline().ms());
            default:
                throw new IllegalStateException("unhandled key " + key);
        }
    }

    /** Whether the broker is on the KIP-491 deprioritized list. */
    public boolean isDeprioritized(int brokerId) {
        return deprioritizedBrokers.contains(brokerId);
    }

    public boolean waitForSync() {
        return algorithm == ElectionAlgorithm.WAIT_FOR_SYNC;
    }

    static String formatPercent(double percent) {
        if (percent == Math.rint(percent)) {
            return Long.toString((long) percent);
        }
        return Double.toString(percent);
    }

    private static long parseLong(ConfigKey key, Map<ConfigKey, String> values, long min) {
        return parseLongInRange(key, values.get(key), min, Long.MAX_VALUE);
    }

    private static long parseLongInRange(ConfigKey key, String raw, long min, long max) {
        long v;
        try {
            v = Long.parseLong(raw);
        } catch (NumberFormatException e) {
            throw ConfigException.invalid(key, raw);
        }
        if (v < min || v > max) {
            throw ConfigException.invalid(key, raw);
        }
        return v;
    }

    private static double parseThreshold(String raw) {
        double v;
        try {
            v = Double.parseDouble(raw);
        } catch (NumberFormatException e) {
            throw ConfigException.invalid(ConfigKey.THRESHOLD_PERCENT, raw);
        }
        if (Double.isNaN(v)
                || v < 0
                || v > 100
                || raw.endsWith("d")
                || raw.endsWith("f")
                || raw.endsWith("D")
                || raw.endsWith("F")) {
            throw ConfigException.invalid(ConfigKey.THRESHOLD_PERCENT, raw);
        }
        return v;
    }

    private static boolean parseBoolean(ConfigKey key, String raw) {
        String v = raw.trim();
        if (v.equalsIgnoreCase("true") || v.equalsIgnoreCase("false")) {
            return Boolean.parseBoolean(v);
        }
        throw ConfigException.invalid(key, raw);
    }

    private static double parseRatio(ConfigKey key, String raw) {
        try {
            double v = Double.parseDouble(raw);
            if (Double.isNaN(v) || Double.isInfinite(v) || v < 1) {
                throw ConfigException.invalid(key, raw);
            }
            return v;
        } catch (NumberFormatException e) {
            throw ConfigException.invalid(key, raw);
        }
    }

    /** The constant of {@code choices} the key's value names; a word none of them is written as is refused. */
    private static <E extends Enum<E> & ConfigChoice> E parseChoice(ConfigKey key, Class<E> choices, String raw) {
        return ConfigChoice.forValue(choices, raw).orElseThrow(() -> ConfigException.invalid(key, raw));
    }

    private static SortedSet<Integer> parseBrokerList(String raw) {
        TreeSet<Integer> ids = new TreeSet<>();
        if (raw.isBlank()) {
            return ids;
        }
        for (String part : raw.split(",", -1)) {
            String s = part.trim();
            int id;
            try {
                id = Integer.parseInt(s);
            } catch (NumberFormatException e) {
                throw new ConfigException(
                        ConfigKey.DEPRIORITIZED_LIST.key(),
                        raw,
                        "'" + ConfigException.printable(s) + "' is not a broker id; must be "
                                + ConfigKey.DEPRIORITIZED_LIST.allowed());
            }
            if (id < 0) {
                throw new ConfigException(
                        ConfigKey.DEPRIORITIZED_LIST.key(),
                        raw,
                        "broker id " + id + " is negative; must be " + ConfigKey.DEPRIORITIZED_LIST.allowed());
            }
            ids.add(id);
        }
        return ids;
    }
}
