package io.leaderpacer.agent.config;

import io.leaderpacer.agent.core.TimeoutMs;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.AbstractConfig;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * The operator's client properties narrowed to what one Kafka client understands, and the settings every producer
 * of the agent's own topics must have.
 *
 * <p>Why one place: the agent's properties file holds settings for the Admin client, which a producer or consumer
 * would log as unknown; security settings ({@code sasl.*}, {@code ssl.*}) always pass, unchanged, whatever the
 * client, and so do Kafka's config providers that resolve them from files. And the agent's own topics are only as safe as their weakest writer: every producer writing them waits
 * for all in-sync replicas and is idempotent, whatever the properties file says.
 */
public final class ClientSettings {

    /**
     * Kafka's config providers ({@code config.providers}, {@code config.providers.NAME.class}, their params): a
     * secret written as {@code ${dir:/etc/pacer/secret:sasl.jaas.config}} resolves in every client only if each gets
     * them.
     */
    private static final String CONFIG_PROVIDERS = AbstractConfig.CONFIG_PROVIDERS_CONFIG;

    private ClientSettings() {}

    /** The keys of {@code clientProperties} that a client with these config names understands, serializers left out. */
    public static Map<String, Object> forClient(Map<String, ?> clientProperties, Set<String> known) {
        Map<String, Object> props = new HashMap<>();
        clientProperties.forEach((k, v) -> {
            if (known.contains(k) || k.startsWith("sasl.") || k.startsWith("ssl.") || k.startsWith(CONFIG_PROVIDERS)) {
                props.put(k, v);
            }
        });
        props.remove("key.serializer");
        props.remove("value.serializer");
        props.remove("key.deserializer");
        props.remove("value.deserializer");
        return props;
    }

    /**
     * A producer for the agent's own topics: {@code acks=all}, idempotent, no transactional id of the operator's,
     * and time-outs bounded by {@code timeout} (each request half of it, at least 1 s) unless the file sets them.
     */
    public static Map<String, Object> durableProducer(Map<String, ?> clientProperties, Duration timeout) {
        Map<String, Object> props = forClient(clientProperties, ProducerConfig.configNames());
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        props.remove(ProducerConfig.TRANSACTIONAL_ID_CONFIG);
        props.putIfAbsent(ProducerConfig.MAX_BLOCK_MS_CONFIG, timeout.toMillis());
        int requestTimeout = Math.max(1000, TimeoutMs.of(timeout.toMillis() / 2));
        props.putIfAbsent(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, requestTimeout);
        props.putIfAbsent(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, TimeoutMs.of(timeout) + requestTimeout);
        return props;
    }
}
