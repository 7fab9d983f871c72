package io.leaderpacer.simulator.scenario;

import io.leaderpacer.engine.config.ConfigException;
import io.leaderpacer.engine.config.PacerConfig;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A policy as a scenario or {@code --policy} names it: {@code NAME}, or {@code NAME:key=value,key=value} for a
 * registered or custom policy with some keys changed (the load test's syntax, so that a policy it runs can be
 * simulated under the same name). The changed policy is named by the whole text.
 */
public final class PolicyText {

    private PolicyText() {}

    /**
     * The policy the text names, or {@code null} when its name is neither one of {@code custom} nor registered.
     *
     * @throws IllegalArgumentException when a {@code key=value} is malformed or a value is invalid
     */
    public static PolicySpec resolve(String text, Map<String, PolicySpec> custom, int preferredPerBroker) {
        String t = text.strip();
        int colon = t.indexOf(':');
        String name = colon < 0 ? t : t.substring(0, colon).strip();
        PolicySpec base =
                custom.containsKey(name) ? custom.get(name) : StandardPolicies.named(name, preferredPerBroker);
        if (base == null || colon < 0) {
            return base;
        }
        Map<String, String> overrides = new LinkedHashMap<>();
        for (String pair : t.substring(colon + 1).split(",")) {
            int eq = pair.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("policy '" + ConfigException.printable(name)
                        + "': expected key=value, got '" + ConfigException.printable(pair.strip()) + "'");
            }
            overrides.put(pair.substring(0, eq).strip(), pair.substring(eq + 1).strip());
        }
        Map<String, String> config = new LinkedHashMap<>(base.configOverrides());
        config.putAll(overrides);
        try {
            PacerConfig.fromMap(config);
        } catch (ConfigException e) {
            throw new IllegalArgumentException(
                    "policy '" + ConfigException.printable(name) + "': " + e.getMessage(), e);
        }
        return new PolicySpec(
                t, base.description() + "; with " + overrides, config, base.replicationThrottleBytesPerSecond());
    }

    /** The name part of {@code NAME[:key=value,...]}. */
    public static String name(String text) {
        String t = text.strip();
        int colon = t.indexOf(':');
        return colon < 0 ? t : t.substring(0, colon).strip();
    }

    /**
     * Joins what a comma-separated option split apart: a piece without {@code :} that holds {@code =} continues the
     * policy before it ({@code recommended:a=1,b=2} arrives as {@code recommended:a=1} and {@code b=2}).
     */
    public static List<String> rejoin(List<String> pieces) {
        List<String> out = new ArrayList<>();
        for (String p : pieces) {
            if (!out.isEmpty()
                    && p.indexOf(':') < 0
                    && p.indexOf('=') > 0
                    && out.get(out.size() - 1).indexOf(':') >= 0) {
                out.set(out.size() - 1, out.get(out.size() - 1) + "," + p);
            } else {
                out.add(p);
            }
        }
        return out;
    }
}
