/**
 * Everything the agent asks of Kafka, through Kafka's own Admin client: reading the cluster into the engine's
 * snapshot, sending the decided preferred elections, and the start-up checks (the brokers' own rebalancing is off;
 * the agent's principal holds exactly the ACLs of {@link io.leaderpacer.agent.kafka.AgentPermissions}).
 *
 * <p>Why a package of its own: it is the only place that knows Kafka's types and error codes. It turns them
 * into the engine's snapshot on the way in and into per-partition {@link io.leaderpacer.agent.core.ElectionOutcome}s
 * on the way out, so the control loop and the engine stay free of Kafka's API and its failure modes.
 *
 * <p>Layer: a port, above {@code core} and {@code config} and depending on nothing else of the agent; the features
 * and the assembly call it.
 */
package io.leaderpacer.agent.kafka;
