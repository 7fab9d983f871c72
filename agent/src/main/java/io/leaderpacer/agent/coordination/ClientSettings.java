package io.leaderpacer.agent.coordination;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * The operator's client properties narrowed to what one Kafka client understands.
 *
 * <p>Why: the agent's properties file holds settings for the Admin client, which a producer or consumer would log
 * as unknown; security settings ({@code sasl.*}, {@code ssl.*}) always pass, unchanged, whatever the client.
 */
final class ClientSettings {

    private ClientSettings() {
    }

    /** The keys of {@code clientProperties} that a client with these config names understands. */
    static Map<String, Object> forClient(Map<String, ?> clientProperties, Set<String> known) {
        Map<String, Object> props = new HashMap<>();
        clientProperties.forEach((k, v) -> {
            if (known.contains(k) || k.startsWith("sasl.") || k.startsWith("ssl.")) {
                props.put(k, v);
            }
        });
        props.remove("key.serializer");
        props.remove("value.serializer");
        props.remove("key.deserializer");
        props.remove("value.deserializer");
        return props;
    }
}
