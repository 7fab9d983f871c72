package io.leaderpacer.agent.config;

import io.leaderpacer.engine.config.KeySpec;
import io.leaderpacer.engine.config.TypedKey;

/**
 * The agent's own settings ({@code pacer.*} keys of the properties file), with defaults and allowed values.
 *
 * <p>Why an enum: the loader rejects an unknown {@code pacer.*} key (a typo must not silently fall back to a
 * default), and the documentation and error messages list the known keys from one place. Looked up by name and
 * listed through {@link io.leaderpacer.engine.config.NamedKey}, as the policy's keys are.
 */
public enum AgentKey implements TypedKey {
    HTTP_ENABLED("pacer.http.enabled", "true", "true or false", "Serve /metrics, /status and /healthz over HTTP."),
    HTTP_HOST(
            "pacer.http.host",
            "127.0.0.1",
            "a host name or address to bind",
            "Address the HTTP endpoint listens on; localhost only unless set (e.g. 0.0.0.0)."),
    HTTP_PORT(
            "pacer.http.port",
            "9180",
            "a port between 0 and 65535 (0 = any free port, logged at start)",
            "Port of the HTTP endpoint."),
    REQUEST_TIMEOUT_MS(
            "pacer.request.timeout.ms",
            "30000",
            "a whole number of milliseconds >= 100",
            "Time-out of each Admin call the agent makes (describe, elect)."),
    DESCRIBE_BATCH_TOPICS(
            "pacer.describe.batch.topics",
            "200",
            "a whole number >= 1",
            "Topics per describeTopics request when reading partition state."),
    GROUP_ID(
            "pacer.group.id",
            "leader-pacer",
            "a consumer group id of at most 200 letters, digits, '.', '_' or '-'",
            "Consumer group shared by the agent instances of one cluster; exactly one of them acts. The transactional id "
                    + "that fences a deposed instance is '<group>-state'."),
    SESSION_TIMEOUT_MS(
            "pacer.session.timeout.ms",
            "10000",
            "a whole number of milliseconds between 6000 and 300000",
            "Group session time-out: a silent active instance is replaced after about 1.7 times this (see the docs)."),
    INSTANCE_ID(
            "pacer.instance.id",
            "",
            "any text (empty = host name and process id)",
            "How this instance is named in logs, /status and its successor's log.");

    private final KeySpec spec;

    AgentKey(String key, String defaultValue, String allowed, String doc) {
        this.spec = new KeySpec(key, defaultValue, allowed, doc);
    }

    @Override
    public KeySpec spec() {
        return spec;
    }
}
