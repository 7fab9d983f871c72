package io.leaderpacer.agent.config;

import io.leaderpacer.engine.config.PacerConfig;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One validated reading of the agent's properties file.
 *
 * <p>Why split three ways: the client properties go to Kafka's Admin client untouched (TLS, SASL, anything
 * Kafka supports), the policy keys become the engine's {@link PacerConfig} (the defaults under any dynamic
 * override), and the {@code pacer.*} keys configure the agent itself. {@link #toString()} is redacted.
 *
 * @param source             where it was read from (for messages), e.g. the file name
 * @param clientProperties   every key that is neither a policy key nor a {@code pacer.*} key, as written
 * @param policy             the policy keys of the file over the engine's defaults
 * @param httpEnabled        whether to serve the HTTP endpoint
 * @param httpHost           the address to bind
 * @param httpPort           the port, 0 = any free port
 * @param requestTimeout     time-out of each Admin call
 * @param describeBatchTopics topics per describeTopics request
 * @param groupId            the consumer group of the agent instances of this cluster
 * @param sessionTimeout     the group session time-out
 * @param instanceId         this instance's name; empty = host name and process id
 */
public record AgentProperties(
        String source,
        Map<String, String> clientProperties,
        PacerConfig policy,
        boolean httpEnabled,
        String httpHost,
        int httpPort,
        Duration requestTimeout,
        int describeBatchTopics,
        String groupId,
        Duration sessionTimeout,
        String instanceId) {

    public AgentProperties {
        Objects.requireNonNull(source, "source");
        clientProperties = Collections.unmodifiableMap(new LinkedHashMap<>(clientProperties));
        Objects.requireNonNull(policy, "policy");
        Objects.requireNonNull(httpHost, "httpHost");
        Objects.requireNonNull(requestTimeout, "requestTimeout");
        Objects.requireNonNull(groupId, "groupId");
        Objects.requireNonNull(sessionTimeout, "sessionTimeout");
        Objects.requireNonNull(instanceId, "instanceId");
    }

    /** The {@code bootstrap.servers} value (never secret). */
    public String bootstrapServers() {
        return clientProperties.get("bootstrap.servers");
    }

    /**
     * The Admin client's configuration: the client properties over a few defaults that suit a long-running
     * agent (bounded time-outs, a slower reconnect so an unreachable cluster is not hammered).
     */
    public Map<String, Object> adminClientConfig() {
        Map<String, Object> config = new LinkedHashMap<>();
        String timeout = Long.toString(requestTimeout.toMillis());
        config.put("client.id", "leader-pacer-agent");
        config.put("request.timeout.ms", timeout);
        config.put("default.api.timeout.ms", timeout);
        config.put("reconnect.backoff.ms", "500");
        config.put("reconnect.backoff.max.ms", "10000");
        config.putAll(clientProperties);
        return config;
    }

    /** A redactor that knows this file's secret values. */
    public SecretRedactor redactor() {
        return SecretRedactor.of(clientProperties);
    }

    /** The client properties with secret values replaced, safe to show anywhere. */
    public Map<String, String> redactedClientProperties() {
        return SecretRedactor.redact(clientProperties);
    }

    @Override
    public String toString() {
        return "AgentProperties{source=" + source + ", client=" + redactedClientProperties()
                + ", policy=" + policy.toMap() + ", http=" + (httpEnabled ? httpHost + ":" + httpPort : "off")
                + ", requestTimeout=" + requestTimeout.toMillis() + " ms, describeBatchTopics=" + describeBatchTopics
                + ", group=" + groupId + ", sessionTimeout=" + sessionTimeout.toMillis() + " ms"
                + (instanceId.isEmpty() ? "" : ", instance=" + instanceId) + "}";
    }
}
