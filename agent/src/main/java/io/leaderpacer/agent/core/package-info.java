/**
 * The agent's shared vocabulary: the value types and small interfaces every other agent package speaks, such as one
 * run's {@link io.leaderpacer.agent.core.RunRecord}, one election's {@link io.leaderpacer.agent.core.ElectionOutcome},
 * one pacing look's {@link io.leaderpacer.agent.core.PacingReport}, the {@link io.leaderpacer.agent.core.ActionGuard}
 * asked before every mutation, the {@link io.leaderpacer.agent.core.ReplicaOrderStep} and
 * {@link io.leaderpacer.agent.core.ConfigSource} the run cycle calls, and the
 * {@link io.leaderpacer.agent.core.StateTopic} the features share.
 *
 * <p>Why a package of its own: when these lived beside {@code PacerAgent}, the packages below it had to import back
 * up into it, and features borrowed each other's types; the agent's packages formed a cycle. Here they sit below
 * everything that uses them, so a feature meets another only through these types, wired together by the assembly.
 *
 * <p>Layer: the bottom, beside {@code config}. It depends on the engine and the JDK only, never on another agent
 * package. The layers, bottom to top: core and config; the ports ({@code kafka}, {@code dynamic}, {@code throttle},
 * {@code metrics}); the features ({@code coordination}, {@code reorder}, {@code pacing}), which never import each
 * other; the assembly (the root package); the face ({@code cli}, {@code http}). {@code AgentLayersTest} enforces it.
 */
package io.leaderpacer.agent.core;
