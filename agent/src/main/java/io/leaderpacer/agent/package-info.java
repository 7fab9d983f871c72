/**
 * The agent: the engine's decisions applied to a real, unmodified Kafka cluster through the Admin API.
 *
 * <p>Why a separate agent: operators cannot wait for the controller to change, so the agent takes over the
 * periodic preferred-leader election (with {@code auto.leader.rebalance.enable=false} on the brokers) and runs it
 * gated, throttled and fair, exactly as the engine decides. The agent only reads the cluster, asks the engine,
 * and elects; every policy decision stays in the engine.
 */
package io.leaderpacer.agent;
