/**
 * The agent: the engine's decisions applied to a real, unmodified Kafka cluster through the Admin API.
 *
 * <p>Why a separate agent: operators cannot wait for the controller to change, so the agent takes over the
 * periodic preferred-leader election (with {@code auto.leader.rebalance.enable=false} on the brokers) and runs it
 * gated, throttled and fair, exactly as the engine decides. The agent only reads the cluster, asks the engine,
 * and elects; every policy decision stays in the engine.
 *
 * <p>Layer: the assembly. This package builds and runs the agent ({@link io.leaderpacer.agent.PacerAgent},
 * {@link io.leaderpacer.agent.AgentAssembly}, the run cycle, the coordinated schedule, the start-up checks) and is
 * the one place that wires the features together: it hands the reorder step, the pacing loop and the active-instance
 * election each other's effects only through the types of {@code io.leaderpacer.agent.core}. Below it, bottom to
 * top: {@code core} and {@code config}; the ports {@code kafka}, {@code dynamic}, {@code throttle} and
 * {@code metrics}; the features {@code coordination}, {@code reorder} and {@code pacing}, which never import each
 * other. Above it only the face: {@code cli} and {@code http}. Nothing below imports this package
 * ({@code AgentLayersTest}).
 */
package io.leaderpacer.agent;
