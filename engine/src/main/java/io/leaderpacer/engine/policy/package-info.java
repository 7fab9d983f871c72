/**
 * The named policies: one registry that every part of the project reads a policy name from (the simulator's
 * scenarios and {@code --policy}, the load test's and the demo's {@code --policy}, the docs), so that one name always
 * means the same settings. The load test's policies sized to a run of minutes extend it outside the engine
 * ({@code io.leaderpacer.report.policy.LoadTestPolicies}), so that the engine does not change when they do; the agent
 * reads this one alone.
 *
 * <p>Why a registry of names at all: the same words used to mean different settings in different places (the
 * simulator's {@code wait-for-sync} was KIP-1358's worked example, 200 per 15 s with a 30-minute max-wait; the load
 * test's was the same gate at a load test of minutes, about 25 batches 2 s apart with a 5-minute max-wait). Now each
 * distinct set of settings has its own name, an unknown name fails listing the known ones, and a name retired by
 * that change says which one took its place ({@link io.leaderpacer.engine.policy.LegacyPolicyNames}).
 *
 * <p>The same names are the production presets an operator turns on ({@code pacer config --preset}) and sees in
 * force ({@link io.leaderpacer.engine.policy.PresetMatch}), so that the policy the evidence measured is the one a
 * cluster runs, by name, rather than keys copied from a document.
 */
package io.leaderpacer.engine.policy;
