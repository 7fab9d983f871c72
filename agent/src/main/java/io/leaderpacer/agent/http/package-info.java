/**
 * The agent's read-only HTTP endpoint: {@code /metrics} (Prometheus), {@code /status} (JSON gate report and recent
 * runs) and {@code /healthz}.
 *
 * <p>Why the JDK's own server: three small GET resources do not justify a web framework in an agent that runs
 * next to Kafka. It binds to localhost unless configured otherwise, answers GET (and HEAD) only, and shows
 * nothing secret: client properties are redacted and every message is scrubbed.
 *
 * <p>Layer: the face, at the top beside {@code cli}: it reads the assembled agent, its metrics and the {@code core}
 * types, and nothing depends on it but the commands.
 */
package io.leaderpacer.agent.http;
