package io.leaderpacer.report.policy;

import io.leaderpacer.engine.config.ConfigKey;
import io.leaderpacer.engine.policy.PolicyEntry;
import io.leaderpacer.engine.policy.PolicyList;
import io.leaderpacer.engine.policy.PolicyRegistry;
import io.leaderpacer.engine.policy.UnknownPolicyException;

import java.util.Collection;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Every policy a load test or a simulation may name: the engine's {@link PolicyRegistry}, plus the policies sized to a
 * load test of minutes, each listed after the production preset it scales ({@link PolicyEntry#productionInstead()}).
 * One lookup for {@code pacer loadtest --policy}, the demo, a scenario's policies and the calibration; the production
 * presets stay the engine's ({@link PolicyRegistry#productionPreset(String)}, which refuses a sized name by name).
 *
 * <p>An explicit list, as the engine's is: {@code pacer simulate --list-policies} prints exactly this, in this order.
 */
public final class LoadTestPolicies {

    /**
     * {@link PolicyRegistry#KIP_EXAMPLE} scaled to a load test of minutes: about {@value #SCALED_BATCHES} capped
     * batches, 2 s apart, max-wait 5 min.
     */
    public static final String KIP_EXAMPLE_SCALED = "kip-example-scaled";

    /** {@link #KIP_EXAMPLE_SCALED} returns the preferred partitions in about this many capped batches (5,000 / 200). */
    public static final int SCALED_BATCHES = 25;

    /** The load test's own policies, sized to the run: not production presets. */
    private static final List<PolicyEntry> SIZED = List.of(PolicyEntry.sized(
            KIP_EXAMPLE_SCALED,
            "kip-example scaled to a load test of minutes (the load test's):"
                    + " threshold 5%, ceil(P / " + SCALED_BATCHES + ") per run for a broker preferred for P"
                    + " partitions, 2 s apart, max-wait 5 min",
            LoadTestPolicies::scaledExample,
            productionInstead(KIP_EXAMPLE_SCALED)));

    private static final PolicyList ALL = new PolicyList(build().values());

    private LoadTestPolicies() {}

    /**
     * The preset the engine names for a sized policy: the engine refuses it as a preset by that name, so the two
     * registries cannot disagree on which names are the load test's.
     */
    private static String productionInstead(String name) {
        return PolicyRegistry.loadTestOnly(name)
                .orElseThrow(() -> new IllegalStateException("the engine's"
                        + " PolicyRegistry does not know '" + name
                        + "' as a load-test-only policy; add it there, with the"
                        + " production preset to use instead"));
    }

    private static Map<String, PolicyEntry> build() {
        Map<String, PolicyEntry> m = new LinkedHashMap<>();
        for (PolicyEntry e : PolicyRegistry.all()) {
            m.put(e.name(), e);
            for (PolicyEntry sized : SIZED) {
                if (sized.productionInstead().orElseThrow().equals(e.name())) {
                    m.put(sized.name(), sized);
                }
            }
        }
        for (PolicyEntry sized : SIZED) {
            if (!m.containsKey(sized.name())) {
                throw new IllegalStateException(
                        sized.name() + " scales " + sized.productionInstead().orElseThrow()
                                + ", which the engine's PolicyRegistry does not have");
            }
        }
        return Collections.unmodifiableMap(m);
    }

    /** {@link #KIP_EXAMPLE_SCALED}'s settings for a broker preferred for {@code preferred} partitions. */
    private static Map<ConfigKey, String> scaledExample(int preferred) {
        Map<ConfigKey, String> m = new EnumMap<>(ConfigKey.class);
        m.put(ConfigKey.ALGORITHM, "wait-for-sync");
        m.put(ConfigKey.THRESHOLD_PERCENT, "5");
        m.put(ConfigKey.MAX_PER_RUN, Integer.toString(scaledCap(preferred)));
        m.put(ConfigKey.THROTTLE_INTERVAL_MS, "2000");
        m.put(ConfigKey.MAX_WAIT_MS, "300000");
        return m;
    }

    /**
     * {@link #KIP_EXAMPLE_SCALED}'s cap: the preferred partitions in about {@value #SCALED_BATCHES} capped batches,
     * as KIP-1358's example returns its 5,000 in batches of 200; at least 1.
     */
    public static int scaledCap(int preferredPartitions) {
        return Math.max(1, (preferredPartitions + SCALED_BATCHES - 1) / SCALED_BATCHES);
    }

    /** {@link PolicyList#find(String)} over every policy a load test may name. */
    public static Optional<PolicyEntry> find(String name) {
        return ALL.find(name);
    }

    /** {@link PolicyList#named(String)} over every policy a load test may name. */
    public static PolicyEntry named(String name) {
        return ALL.named(name);
    }

    /** {@link PolicyList#all()}: every policy a load test may name, each sized one after the preset it scales. */
    public static List<PolicyEntry> all() {
        return ALL.all();
    }

    /** {@link PolicyList#names()}: their names, in the same order. */
    public static List<String> names() {
        return ALL.names();
    }

    /**
     * The error for a name that is neither a policy here nor one of {@code customNames} (a scenario's own policies):
     * it lists these names, then the custom ones, and says which name replaced a retired one.
     */
    public static UnknownPolicyException unknown(String name, Collection<String> customNames) {
        return ALL.unknown(name, customNames);
    }
}
