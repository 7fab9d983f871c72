/**
 * The agent's properties file: connection settings passed to Kafka's Admin client, the policy keys, and the
 * agent's own {@code pacer.*} settings; plus the redaction of secrets.
 *
 * <p>Why a package of its own: the file is re-read on every run (so an edit applies on the next run), must
 * reject mistakes with the file, key, value and allowed range, and must never let a password or JAAS
 * configuration leak into a log line, the status page or an error message. Those rules live here, once.
 *
 * <p>Layer: the bottom, beside {@code core}: it depends on the engine only, never on another agent package, so every
 * layer above may read settings and redact through it.
 */
package io.leaderpacer.agent.config;
