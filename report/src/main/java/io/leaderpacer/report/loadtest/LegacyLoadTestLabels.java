package io.leaderpacer.report.loadtest;

import io.leaderpacer.report.policy.LoadTestPolicies;

/**
 * The policy labels load-test runs recorded before the policies got one registry, turned into today's names: the one
 * place that maps them, beside the files that hold them (the {@code policy} column, {@link RoundKey#policy()}).
 *
 * <p>Why: recorded data is read as it was written. Runs recorded before the registry (docs/evidence, and any
 * operator's older output) label their rounds {@code immediate}, {@code wait-for-sync} and
 * {@code wait-for-sync:key=value,...}; a calibration reads old and new runs alike only if those labels mean today's
 * names. A load test's {@code wait-for-sync} was always the scaled example
 * ({@value LoadTestPolicies#KIP_EXAMPLE_SCALED}), the load test's own policy, so the mapping lives with the load
 * test's files and policies rather than in the engine, which names the retired policy names alone
 * ({@code io.leaderpacer.engine.policy.LegacyPolicyNames}).
 */
public final class LegacyLoadTestLabels {

    /** The retired load-test label of {@value LoadTestPolicies#KIP_EXAMPLE_SCALED}. */
    public static final String LOAD_TEST_WAIT_FOR_SYNC = "wait-for-sync";

    private LegacyLoadTestLabels() {}

    /**
     * Today's name for a policy label as a load test recorded it (the {@code policy} column of its CSV files): the
     * retired {@code wait-for-sync} becomes {@value LoadTestPolicies#KIP_EXAMPLE_SCALED}, with its
     * {@code :key=value,...} overrides kept; every other label, {@code immediate} included, is returned unchanged.
     */
    public static String todaysName(String recorded) {
        if (recorded.equals(LOAD_TEST_WAIT_FOR_SYNC)) {
            return LoadTestPolicies.KIP_EXAMPLE_SCALED;
        }
        if (recorded.startsWith(LOAD_TEST_WAIT_FOR_SYNC + ":")) {
            return LoadTestPolicies.KIP_EXAMPLE_SCALED + recorded.substring(LOAD_TEST_WAIT_FOR_SYNC.length());
        }
        return recorded;
    }
}
