/**
 * The load test's policies: the engine's {@link io.leaderpacer.engine.policy.PolicyRegistry} plus the policies sized
 * to a load test of minutes ({@link io.leaderpacer.report.policy.LoadTestPolicies}), the one lookup the load test and
 * the simulator read a policy name from.
 *
 * <p>Why here and not in the engine: a policy sized to a run's preferred partitions is the load test's (a
 * cluster-wide key has one value for every broker, so no production preset can be one), and the engine should not
 * change when the load test's policies do. Why in this module: the load test and the simulator both name these
 * policies (the simulator's scenarios and calibration model the load test's runs), neither depends on the other, and
 * both depend on this one, which depends on the engine alone.
 */
package io.leaderpacer.report.policy;
