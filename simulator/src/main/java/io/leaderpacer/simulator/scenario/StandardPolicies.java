package io.leaderpacer.simulator.scenario;

import io.leaderpacer.engine.config.ConfigException;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The policies every scenario can name without defining them: Kafka today, the seed's example
 * settings, the two literal readings DESIGN.md keeps as variants, and the throttles alone.
 *
 * <p>An explicit registry (no reflection, no discovery) so that the list in the docs, the
 * {@code --policy} help and what runs are the same thing.
 */
public final class StandardPolicies {

    /** The policy every result is compared against: Kafka's behaviour today. */
    public static final String BASELINE = "baseline";

    private static final String ALGORITHM = "leader.imbalance.election.algorithm";
    private static final String THRESHOLD = "leader.imbalance.election.wait.for.sync.threshold.percent";
    private static final String MAX_WAIT = "leader.imbalance.election.wait.for.sync.max.wait.ms";
    private static final String MAX_PER_RUN = "leader.imbalance.election.max.per.run";
    private static final String THROTTLE = "leader.imbalance.election.throttle.interval.ms";
    private static final String DENOMINATOR = "leader.imbalance.election.wait.for.sync.denominator";
    private static final String CLOCK = "leader.imbalance.election.wait.for.sync.max.wait.clock";

    private static final Map<String, PolicySpec> ALL = build();

    private StandardPolicies() {
    }

    private static Map<String, PolicySpec> build() {
        Map<String, PolicySpec> m = new LinkedHashMap<>();
        add(m, BASELINE, "Kafka today: immediate, cap 1000, immediate reschedule", Map.of(), 0);
        Map<String, String> seed = Map.of(ALGORITHM, "wait-for-sync", THRESHOLD, "5", MAX_WAIT, "1800000",
                MAX_PER_RUN, "200", THROTTLE, "15000");
        add(m, "wait-for-sync", "the seed's example: wait-for-sync, threshold 5%, max-wait 30 min, 200 per 15 s", seed, 0);
        add(m, "wait-for-sync-literal", "as wait-for-sync, gate ratio over imbalanced partitions only (literal reading)",
                with(seed, DENOMINATOR, "imbalanced-only"), 0);
        add(m, "wait-for-sync-wall-clock", "as wait-for-sync, max-wait clock running while the broker is down (literal reading)",
                with(seed, CLOCK, "wall"), 0);
        add(m, "wait-for-sync-strict", "as wait-for-sync with threshold 0 (any out-of-sync partition gates)",
                with(seed, THRESHOLD, "0"), 0);
        add(m, "wait-for-sync-strict-no-escape", "threshold 0 and max-wait 0 (never escape)",
                with(with(seed, THRESHOLD, "0"), MAX_WAIT, "0"), 0);
        add(m, "throttle-only", "immediate, 200 per run, 15 s between capped runs: the seed's throttle without the gate",
                Map.of(MAX_PER_RUN, "200", THROTTLE, "15000"), 0);
        add(m, "replication-throttle", "Kafka today plus a 400 MB/s follower replication throttle on catch-up "
                + "(the seed's rejected alternative 1)", Map.of(), 400e6);
        return Collections.unmodifiableMap(m);
    }

    private static Map<String, String> with(Map<String, String> base, String key, String value) {
        Map<String, String> out = new LinkedHashMap<>(base);
        out.put(key, value);
        return out;
    }

    private static void add(Map<String, PolicySpec> m, String name, String description, Map<String, String> config,
                            double throttle) {
        m.put(name, new PolicySpec(name, description, config, throttle));
    }

    /** The standard policy with this name, or {@code null}. */
    public static PolicySpec named(String name) {
        return ALL.get(name);
    }

    public static List<String> names() {
        return new ArrayList<>(ALL.keySet());
    }

    /**
     * The names an "unknown policy" error lists: the standard ones, then the given custom ones (from a file, so
     * quoted and shortened as any value an error repeats).
     */
    public static List<String> knownNames(Collection<String> customNames) {
        List<String> known = new ArrayList<>(names());
        for (String c : customNames) {
            if (!known.contains(c)) {
                known.add(ConfigException.printable(c));
            }
        }
        return known;
    }

    public static List<PolicySpec> all() {
        return new ArrayList<>(ALL.values());
    }

    /** The four the issue asks for in every scenario, baseline first. */
    public static List<String> defaultSet() {
        return List.of(BASELINE, "wait-for-sync", "wait-for-sync-literal", "throttle-only");
    }
}
