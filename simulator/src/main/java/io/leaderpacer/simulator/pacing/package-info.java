/**
 * Catch-up pacing as the agent runs it, on the model: every {@code leader.imbalance.catch.up.pacing.interval.ms} the
 * engine's {@link io.leaderpacer.engine.pacing.CatchUpPacer} decides from what an agent can observe (whether a broker
 * is up and unfenced, the bytes its leaders hold beyond it, and a canary's P99 against its steady P99), and the
 * decided rate becomes that broker's follower replication throttle in the model
 * ({@link io.leaderpacer.simulator.model.FollowerThrottle}).
 *
 * <p>Why in the simulator: the rule is the engine's, unchanged, so what the model predicts for a pacing configuration is
 * what the agent would do with it; only the observations and the throttle are modelled.
 */
package io.leaderpacer.simulator.pacing;
