package io.leaderpacer.engine.policy;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The policy names retired when the policies got one {@link PolicyRegistry}, in the one place that maps them.
 *
 * <p>Two uses. A retired name given as a policy is an error, and the error says which name replaced it
 * ({@link #replacement}). Recorded data is read as it was written: load-test runs recorded before the registry
 * (docs/evidence, and any operator's older output) label their rounds {@code immediate}, {@code wait-for-sync} and
 * {@code wait-for-sync:key=value,...}; {@link #loadTestLabel} turns those labels into today's names, so a calibration
 * reads old and new runs alike. A load test's {@code wait-for-sync} was always the scaled example
 * ({@value PolicyRegistry#KIP_EXAMPLE_SCALED}); the simulator's was KIP-1358's example itself
 * ({@value PolicyRegistry#KIP_EXAMPLE}), which is why the bare name is no longer accepted anywhere else.
 *
 * <p>{@code wait-for-sync} stays what it always was as the value of
 * {@code leader.imbalance.election.algorithm}: only the policy name is retired.
 */
public final class LegacyPolicyNames {

    /** The retired load-test label of {@value PolicyRegistry#KIP_EXAMPLE_SCALED}. */
    public static final String LOAD_TEST_WAIT_FOR_SYNC = "wait-for-sync";

    private static final Map<String, String> RETIRED = retired();

    private LegacyPolicyNames() {
    }

    private static Map<String, String> retired() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("baseline", "'baseline' is now " + PolicyRegistry.IMMEDIATE);
        m.put("wait-for-sync", "'wait-for-sync' is retired as a policy name: it meant two policies; the simulator's is now "
                + PolicyRegistry.KIP_EXAMPLE + ", the load test's and the demo's " + PolicyRegistry.KIP_EXAMPLE_SCALED);
        for (String variant : new String[] {"literal", "wall-clock", "strict", "strict-no-escape"}) {
            m.put("wait-for-sync-" + variant, "'wait-for-sync-" + variant + "' is now kip-example-" + variant);
        }
        m.put("recheck-15s-floor-60s-kafka-cap", "'recheck-15s-floor-60s-kafka-cap' is now " + PolicyRegistry.RECOMMENDED);
        return m;
    }

    /** What to tell someone who gave a retired policy name; empty for any other name. */
    public static Optional<String> replacement(String name) {
        return Optional.ofNullable(RETIRED.get(name));
    }

    /**
     * Today's name for a policy label as a load test recorded it (the {@code policy} column of its CSV files): the
     * retired {@code wait-for-sync} becomes {@value PolicyRegistry#KIP_EXAMPLE_SCALED}, with its
     * {@code :key=value,...} overrides kept; every other label, {@code immediate} included, is returned unchanged.
     */
    public static String loadTestLabel(String recorded) {
        if (recorded.equals(LOAD_TEST_WAIT_FOR_SYNC)) {
            return PolicyRegistry.KIP_EXAMPLE_SCALED;
        }
        if (recorded.startsWith(LOAD_TEST_WAIT_FOR_SYNC + ":")) {
            return PolicyRegistry.KIP_EXAMPLE_SCALED + recorded.substring(LOAD_TEST_WAIT_FOR_SYNC.length());
        }
        return recorded;
    }
}
