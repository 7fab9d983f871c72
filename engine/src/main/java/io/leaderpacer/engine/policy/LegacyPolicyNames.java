package io.leaderpacer.engine.policy;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The policy names retired when the policies got one {@link PolicyRegistry}, in the one place that maps them: a
 * retired name given as a policy or a preset is an error, and the error says which name replaced it
 * ({@link #replacement}).
 *
 * <p>Recorded data is read elsewhere: the labels older load-test runs wrote in their CSV files ({@code wait-for-sync}
 * for the load test's scaled example) are turned into today's names where those files are read
 * ({@code io.leaderpacer.report.loadtest.LegacyLoadTestLabels}), so the engine does not change with the load test's
 * labels. A load test's {@code wait-for-sync} was always the scaled example
 * ({@value PolicyRegistry#LOAD_TEST_SCALED_EXAMPLE}); the simulator's was KIP-1358's example itself
 * ({@value PolicyRegistry#KIP_EXAMPLE}), which is why the bare name is no longer accepted anywhere else.
 *
 * <p>{@code wait-for-sync} stays what it always was as the value of
 * {@code leader.imbalance.election.algorithm}: only the policy name is retired.
 */
public final class LegacyPolicyNames {

    private static final Map<String, String> RETIRED = retired();

    private LegacyPolicyNames() {}

    private static Map<String, String> retired() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("baseline", "'baseline' is now " + PolicyRegistry.IMMEDIATE);
        m.put(
                "wait-for-sync",
                "'wait-for-sync' is retired as a policy name: it meant two policies; the simulator's is now "
                        + PolicyRegistry.KIP_EXAMPLE + ", the load test's and the demo's "
                        + PolicyRegistry.LOAD_TEST_SCALED_EXAMPLE);
        for (String variant : new String[] {"literal", "wall-clock", "strict", "strict-no-escape"}) {
            m.put("wait-for-sync-" + variant, "'wait-for-sync-" + variant + "' is now kip-example-" + variant);
        }
        m.put(
                "recheck-15s-floor-60s-kafka-cap",
                "'recheck-15s-floor-60s-kafka-cap' is now " + PolicyRegistry.RECOMMENDED);
        return m;
    }

    /** What to tell someone who gave a retired policy name; empty for any other name. */
    public static Optional<String> replacement(String name) {
        return Optional.ofNullable(RETIRED.get(name));
    }
}
