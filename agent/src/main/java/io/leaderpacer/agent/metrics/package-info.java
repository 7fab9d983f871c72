/**
 * The agent's metrics, with KIP-1358's names, over JMX and in Prometheus' text format.
 *
 * <p>Why: operators watch the gate through the same names KIP-1358 gives the controller's metrics
 * ({@code OutOfSyncPreferredPartitionCount}, {@code GatedBrokerCount}, ...), whichever way they collect metrics.
 * The metrics are fed from each run's record; they carry broker ids and outcomes as tags, never configuration.
 *
 * <p>Layer: a port to monitoring, depending on {@code core} only (runs, elections and pacing looks arrive as
 * {@code core} types); the face registers it with the agent and serves it over HTTP.
 */
package io.leaderpacer.agent.metrics;
