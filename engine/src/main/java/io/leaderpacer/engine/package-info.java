/**
 * The policy: which partitions get their preferred leader back in this run of the controller's
 * periodic task, and which wait.
 *
 * <p>{@link io.leaderpacer.engine.PreferredLeaderBalancer#decide} takes a cluster snapshot, the
 * configuration, the time (as data: the engine never reads a clock) and the gate's memory from the
 * previous run, and returns an {@link io.leaderpacer.engine.ElectionDecision} holding the
 * elections, the figures KIP-1358's metrics need, a per-broker explanation and the gate's next
 * memory. Nothing is static or hidden; "controller failover" is starting again from
 * {@link io.leaderpacer.engine.BalancerMemory#empty()}.
 */
package io.leaderpacer.engine;
