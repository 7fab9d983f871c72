/**
 * Catch-up pacing in the agent: it observes recovering brokers, asks the engine's
 * {@link io.leaderpacer.engine.pacing.CatchUpPacer} how fast each may catch up, and applies that with Kafka's own
 * follower replication throttle on the broker's out-of-sync replicas only.
 *
 * <p>Why in the agent, on unmodified Kafka: a restarted broker back in a partition's ISR is a follower that every
 * {@code acks=all} write waits for, whoever leads; while it still fetches a backlog for other partitions, those
 * waits grow. Kafka leaves in-sync replicas out of its follower throttle, so throttling the out-of-sync ones keeps
 * the in-sync path fast (docs/evidence/throttle-probe/THROTTLE-PROBE.md measured when Kafka enforces it).
 *
 * <p>What it changes it owns: before it changes a config it records the value it found in the agent's state topic
 * ({@link ThrottleLedger}), merges with what others set (it adds and removes only its own list entries, and never
 * changes a rate it did not set), and restores exactly the value it found when it is done, when it stops, and on
 * the next start after a crash.
 *
 * <p>Layer: a feature, on {@code core}, {@code config} and the ports ({@code kafka}, {@code dynamic},
 * {@code throttle}) only; it never imports another feature. Each look is published as a
 * {@link io.leaderpacer.agent.core.PacingReport}.
 */
package io.leaderpacer.agent.pacing;
