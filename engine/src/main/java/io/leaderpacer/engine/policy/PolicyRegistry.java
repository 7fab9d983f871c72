package io.leaderpacer.engine.policy;

import io.leaderpacer.engine.config.ConfigException;
import io.leaderpacer.engine.config.ConfigKey;

import java.util.Collection;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The engine's named policies, in one place: Kafka's behaviour today, KIP-1358's worked example and its variants, and
 * the recommended configuration (docs/CONFIGURATION.md). The load test's policies sized to a run of minutes (the
 * example scaled, {@value #LOAD_TEST_SCALED_EXAMPLE}) are the load test's: its registry
 * ({@code io.leaderpacer.report.policy.LoadTestPolicies}) is this one plus them, and is what the load test and the
 * simulator look names up in. This one knows their names only to refuse them as presets ({@link #loadTestOnly}).
 *
 * <p>An explicit list (no reflection, no discovery), in the spirit of a simulator's policy registry: with the load
 * test's sized policies added, what {@code pacer simulate --list-policies} prints, what a scenario or {@code --policy}
 * may name and what the docs cite are the same thing. Different settings always get different names; an unknown name
 * is an error that lists the known ones ({@link UnknownPolicyException}).
 *
 * <p>The fixed entries the agent can run are also the production presets ({@link #productionPresets()}): what
 * {@code pacer config --preset NAME} writes, and what {@code pacer status} and {@code pacer plan} recognise in the
 * keys in force ({@link PresetMatch}). A policy sized to a load test, or one only the simulator models, is refused
 * as a preset with the reason ({@link #productionPreset(String)}).
 */
public final class PolicyRegistry {

    /** Kafka's behaviour today; every other policy is compared with it (the baseline). */
    public static final String IMMEDIATE = "immediate";
    /** KIP-1358's worked example: gate at 5 %, 200 per run, 15 s between capped runs, max-wait 30 min. */
    public static final String KIP_EXAMPLE = "kip-example";
    /** The recommended configuration of docs/CONFIGURATION.md. */
    public static final String RECOMMENDED = "recommended";
    /**
     * {@link #RECOMMENDED} with the catch-up paced: producers first. Evidence run 13's best trade-off
     * (docs/CONFIGURATION.md, "Presets").
     */
    public static final String RECOMMENDED_PACED = "recommended-paced";
    /**
     * {@link #RECOMMENDED_PACED}'s cap: with its 1 s between capped runs, leadership comes back 10 partitions a second
     * whatever the broker's size.
     */
    public static final int PACED_MAX_PER_RUN = 10;
    /**
     * {@link #RECOMMENDED_PACED} with a recovery deadline: the restarted broker's preferred replicas first, paced no
     * slower than what has it lead them again within {@value #DEADLINE_MS} ms of unfencing.
     */
    public static final String RECOMMENDED_DEADLINE = "recommended-deadline";
    /**
     * {@link #RECOMMENDED_DEADLINE}'s deadline: inside KIP-1358's bound on the load test's defaults (twice Kafka's own
     * 27 s there, evidence run 20), with a margin. An operator sets the key to the time they choose.
     */
    public static final long DEADLINE_MS = 45_000;
    /** Kafka today plus a follower replication throttle on catch-up: modelled by the simulator only. */
    public static final String REPLICATION_THROTTLE = "replication-throttle";

    /**
     * The load test's {@link #KIP_EXAMPLE} scaled to a run of minutes, sized by the restarted broker's preferred
     * partitions: defined, with its sizing, by the load test's registry ({@code LoadTestPolicies} in the report
     * module). Here only its name, to refuse it as a production preset and to name it when a retired name meant it.
     */
    static final String LOAD_TEST_SCALED_EXAMPLE = "kip-example-scaled";

    /**
     * The policies the load test sizes to its run, by name, each with the production preset to use instead on a real
     * cluster: not this registry's entries (no settings here), refused as presets by name.
     */
    private static final Map<String, String> LOAD_TEST_ONLY = Map.of(LOAD_TEST_SCALED_EXAMPLE, KIP_EXAMPLE);

    private static final PolicyList ALL = new PolicyList(build());

    private PolicyRegistry() {}

    private static List<PolicyEntry> build() {
        Map<ConfigKey, String> example = settings(
                ConfigKey.ALGORITHM, "wait-for-sync",
                ConfigKey.THRESHOLD_PERCENT, "5",
                ConfigKey.MAX_WAIT_MS, "1800000",
                ConfigKey.MAX_PER_RUN, "200",
                ConfigKey.THROTTLE_INTERVAL_MS, "15000");
        Map<ConfigKey, String> strict = with(example, ConfigKey.THRESHOLD_PERCENT, "0");
        Map<ConfigKey, String> recommended = with(
                with(with(example, ConfigKey.RECHECK_INTERVAL_MS, "15000"), ConfigKey.HYSTERESIS_MIN_MS, "60000"),
                ConfigKey.MAX_PER_RUN,
                "1000");
        List<PolicyEntry> entries = List.of(
                PolicyEntry.fixed(IMMEDIATE, "Kafka today: immediate, cap 1000, immediate reschedule", Map.of()),
                PolicyEntry.fixed(
                        KIP_EXAMPLE,
                        "KIP-1358's worked example: wait-for-sync, threshold 5%, max-wait 30 min," + " 200 per 15 s",
                        example),
                PolicyEntry.fixed(
                        RECOMMENDED,
                        "the recommended configuration (docs/CONFIGURATION.md):"
                                + " kip-example re-checked every 15 s while gated, hysteresis of at least 60 s, Kafka's cap of"
                                + " 1000 per run",
                        recommended),
                PolicyEntry.fixed(
                        RECOMMENDED_PACED,
                        "recommended with the catch-up paced (adaptive follower throttle),"
                                + " re-checked every 5 s with no hysteresis floor, leadership returned "
                                + PACED_MAX_PER_RUN
                                + " partitions a run, 1 s apart",
                        pacedRecommended(recommended)),
                PolicyEntry.fixed(
                        RECOMMENDED_DEADLINE,
                        "recommended-paced with a recovery deadline: the preferred replicas caught up first, no slower"
                                + " than what has the broker lead them again within "
                                + DEADLINE_MS / 1000
                                + " s of unfencing (leader.imbalance.catch.up.pacing.deadline.ms), faster while"
                                + " producers allow",
                        deadlineRecommended(pacedRecommended(recommended))),
                PolicyEntry.fixed(
                        "kip-example-literal",
                        "as kip-example, gate ratio over imbalanced partitions only" + " (literal reading)",
                        with(example, ConfigKey.GATE_DENOMINATOR, "imbalanced-only")),
                PolicyEntry.fixed(
                        "kip-example-wall-clock",
                        "as kip-example, max-wait clock running while the broker is" + " down (literal reading)",
                        with(example, ConfigKey.MAX_WAIT_CLOCK, "wall")),
                PolicyEntry.fixed(
                        "kip-example-strict",
                        "as kip-example with threshold 0 (any out-of-sync partition" + " gates)",
                        strict),
                PolicyEntry.fixed(
                        "kip-example-strict-no-escape",
                        "threshold 0 and max-wait 0 (never escape)",
                        with(strict, ConfigKey.MAX_WAIT_MS, "0")),
                PolicyEntry.fixed(
                        "throttle-only",
                        "immediate, 200 per run, 15 s between capped runs: KIP-1358's" + " throttle without the gate",
                        settings(ConfigKey.MAX_PER_RUN, "200", ConfigKey.THROTTLE_INTERVAL_MS, "15000")),
                PolicyEntry.modelOnly(
                        REPLICATION_THROTTLE,
                        "Kafka today plus a follower replication throttle on"
                                + " catch-up (KIP-1358's rejected alternative 1; simulator only)"));
        return entries;
    }

    /**
     * {@link #RECOMMENDED_PACED}'s settings: the catch-up paced by the adaptive follower throttle, the gate released
     * as soon as the broker is back in sync (a re-check every 5 s, no hysteresis floor, since pacing already spreads
     * the catch-up out), and leadership handed back a few partitions a second rather than all at once, because a burst
     * of returns onto a just-caught-up broker was what producers still felt (evidence runs 9 and 10).
     *
     * <p>Why a fixed {@value #PACED_MAX_PER_RUN} per run, 1 s apart, rather than a share of the broker's partitions:
     * the keys are cluster-wide, one value for brokers of any size, so a preset an operator turns on cannot depend on
     * one broker's count. 10 a second is the rate the load test's default cluster measured (about 100 preferred
     * partitions per broker, returned in about 10 runs when this policy was sized at ceil(P / 10)); a broker preferred
     * for 5,000 partitions takes about 500 s to lead them all again at this rate.
     */
    private static Map<ConfigKey, String> pacedRecommended(Map<ConfigKey, String> recommended) {
        Map<ConfigKey, String> m = with(recommended, ConfigKey.CATCH_UP_PACING, "adaptive");
        m.put(ConfigKey.RECHECK_INTERVAL_MS, "5000");
        m.put(ConfigKey.HYSTERESIS_MIN_MS, "0");
        m.put(ConfigKey.MAX_PER_RUN, Integer.toString(PACED_MAX_PER_RUN));
        m.put(ConfigKey.THROTTLE_INTERVAL_MS, "1000");
        return m;
    }

    /** {@link #RECOMMENDED_DEADLINE}'s settings: the paced ones, preferred replicas first, and the deadline. */
    private static Map<ConfigKey, String> deadlineRecommended(Map<ConfigKey, String> paced) {
        Map<ConfigKey, String> m = with(paced, ConfigKey.CATCH_UP_PREFERRED_FIRST, "true");
        m.put(ConfigKey.CATCH_UP_DEADLINE_MS, Long.toString(DEADLINE_MS));
        return m;
    }

    private static Map<ConfigKey, String> settings(Object... keyValues) {
        Map<ConfigKey, String> m = new EnumMap<>(ConfigKey.class);
        for (int i = 0; i < keyValues.length; i += 2) {
            m.put((ConfigKey) keyValues[i], (String) keyValues[i + 1]);
        }
        return m;
    }

    private static Map<ConfigKey, String> with(Map<ConfigKey, String> base, ConfigKey key, String value) {
        Map<ConfigKey, String> m = new EnumMap<>(ConfigKey.class);
        m.putAll(base);
        m.put(key, value);
        return m;
    }

    /** The policy with this name, if there is one. */
    public static Optional<PolicyEntry> find(String name) {
        return ALL.find(name);
    }

    /**
     * The policy with this name.
     *
     * @throws UnknownPolicyException listing the known names (and, for a retired name, the one that replaced it)
     */
    public static PolicyEntry named(String name) {
        return ALL.named(name);
    }

    /** Every policy, in the order listings show them. */
    public static List<PolicyEntry> all() {
        return ALL.all();
    }

    /** Every policy's name, in the order listings show them. */
    public static List<String> names() {
        return ALL.names();
    }

    /**
     * The keys a production preset decides: every key but the check interval (how often the periodic task runs; the
     * load test runs every policy with its own) and the deprioritized list (which brokers, not how leadership comes
     * back). A preset sets some of them and leaves the others at Kafka's defaults.
     */
    public static Set<ConfigKey> presetKeys() {
        Set<ConfigKey> keys = EnumSet.allOf(ConfigKey.class);
        keys.remove(ConfigKey.CHECK_INTERVAL_SECONDS);
        keys.remove(ConfigKey.DEPRIORITIZED_LIST);
        return keys;
    }

    /** The production presets, in the order listings show them: every fixed policy the agent can run. */
    public static List<PolicyEntry> productionPresets() {
        return ALL.all().stream().filter(PolicyEntry::productionPreset).toList();
    }

    /**
     * For a policy the load test sizes to its run (not an entry of this registry): the production preset to use
     * instead on a real cluster; empty for any other name. The load test's registry takes it from here.
     */
    public static Optional<String> loadTestOnly(String name) {
        return Optional.ofNullable(LOAD_TEST_ONLY.get(name));
    }

    /**
     * The production preset with this name, for a real cluster.
     *
     * @throws IllegalArgumentException saying why: an unknown name (listing the production presets), a policy sized
     *                                  for a load test (naming the preset to use instead), or one the simulator alone
     *                                  models
     */
    public static PolicyEntry productionPreset(String name) {
        PolicyEntry e = ALL.find(name).orElse(null);
        String quoted = "'" + ConfigException.printable(name) + "'";
        Optional<String> sizedInstead = e == null
                ? loadTestOnly(name)
                : e.sizedByPreferredPartitions() ? e.productionInstead() : Optional.empty();
        if (sizedInstead.isPresent()) {
            throw new IllegalArgumentException(quoted + " is sized for a load test of minutes, not for a production"
                    + " cluster: its per-run cap depends on the partition count of the broker that recovers, and a"
                    + " cluster-wide key has one value for every broker; use the production preset "
                    + sizedInstead.get() + " instead");
        }
        if (e == null) {
            throw new IllegalArgumentException("unknown preset " + quoted + "; the production presets are "
                    + String.join(
                            ", ",
                            productionPresets().stream().map(PolicyEntry::name).toList())
                    + LegacyPolicyNames.replacement(name)
                            .map(r -> " (" + r + ")")
                            .orElse(""));
        }
        if (e.modelOnly()) {
            throw new IllegalArgumentException(quoted + " is modelled by the simulator alone: no Leader Pacer key"
                    + " sets its replication throttle, so no agent can run it; the agent's own follower throttle on a"
                    + " catch-up is in the production preset " + RECOMMENDED_PACED);
        }
        return e;
    }

    /**
     * The error for a name that is neither a registered policy nor one of {@code customNames} (a scenario's own
     * policies): it lists the registered names, then the custom ones, and says which name replaced a retired one.
     */
    public static UnknownPolicyException unknown(String name, Collection<String> customNames) {
        return ALL.unknown(name, customNames);
    }
}
