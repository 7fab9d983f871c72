/**
 * Elections, the product's core feature: one run of the task reads the cluster, applies the replica order, lets the
 * engine's {@code PreferredLeaderBalancer} decide (the gate, the cap, the round robin) and elects what it decided,
 * through the ports ({@code ClusterReader}, {@code LeaderElector}). Beside the other features (catch-up pacing, the
 * replica order, rolling restarts), not in the assembly that schedules it.
 */
package io.leaderpacer.agent.election;
