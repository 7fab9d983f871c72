package io.leaderpacer.embedded;

import io.leaderpacer.testbed.KeyStoreFile;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.common.config.SslConfigs;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * The server and client settings of a TLS {@link EmbeddedKafkaCluster}: {@link ListenerMode#SSL}, {@link
 * ListenerMode#SASL_SSL} or {@link ListenerMode#MUTUAL_TLS}.
 *
 * <p>Why this shape: Kafka's test kit (4.3) only builds plaintext and SASL-plaintext listeners, but it lets the
 * listener security map be set from outside; so the kit keeps naming and binding the listeners ({@code EXTERNAL}
 * for clients and between brokers, {@code CONTROLLER}) and this class says what each speaks. Brokers talk to each
 * other over the clients' listener, so the brokers' own client side is checked as strictly as any client's
 * (hostname verification, and under mutual TLS their own certificate). The controller's listener stays plaintext
 * (SASL-plaintext with SASL) except under mutual TLS, where the controller's authorizer must know its brokers by
 * their certificates too.
 *
 * <p>Extra TLS listeners ({@link EmbeddedClusterBuilder#extraTlsListener}) present a certificate of their
 * own: how a test meets a broker with an expired certificate, or one issued for another host, without a second
 * cluster.
 */
final class TlsSetup {

    /** Maps a certificate's distinguished name to its common name: {@code CN=pacer-agent,O=x} is {@code pacer-agent}. */
    static final String PRINCIPAL_MAPPING_RULES = "RULE:^CN=([^,]+),.*$/$1/,DEFAULT";
    /** The only store type used: PKCS12, Java's default. */
    static final String STORE_TYPE = "PKCS12";

    private TlsSetup() {}

    /** The listener security map: the clients' listener, the controller's, and each extra TLS listener. */
    static String securityProtocolMap(ListenerMode mode, Iterable<String> extraListeners) {
        String controller = switch (mode) {
            case SASL_SSL -> "SASL_PLAINTEXT";
            case MUTUAL_TLS -> "SSL";
            default -> "PLAINTEXT";
        };
        StringBuilder map = new StringBuilder("EXTERNAL:" + mode.protocol().name + ",CONTROLLER:" + controller);
        for (String name : extraListeners) {
            map.append(',').append(name).append(":SSL");
        }
        return map.toString();
    }

    /** Server properties of every node for a TLS mode (the SASL settings of SASL_SSL come from {@link SaslScramSetup}). */
    static Map<String, String> serverProperties(ListenerMode mode, TlsStores stores) {
        Objects.requireNonNull(stores, "stores");
        Map<String, String> p = new LinkedHashMap<>();
        p.putAll(keyStore("", stores.brokerKeyStore()));
        p.putAll(trustStore(stores.trustStore()));
        if (mode == ListenerMode.MUTUAL_TLS) {
            if (!stores.hasSuperUser()) {
                throw new IllegalArgumentException(
                        "mutual TLS needs a super-user key store for the cluster's own admin client");
            }
            p.put("ssl.client.auth", "required");
            p.put("ssl.principal.mapping.rules", PRINCIPAL_MAPPING_RULES);
            p.put("authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer");
            p.put("allow.everyone.if.no.acl.found", "false");
            p.put("super.users", "User:" + stores.brokerPrincipal() + ";User:" + stores.superUserPrincipal());
        }
        return p;
    }

    /** Server properties of one extra TLS listener that presents its own certificate. */
    static Map<String, String> extraListenerProperties(String listener, KeyStoreFile keyStore) {
        return keyStore("listener.name." + listener.toLowerCase(Locale.ROOT) + ".", keyStore);
    }

    /** Client properties (without bootstrap servers) that trust the cluster's CA, with hostname verification on. */
    static Map<String, String> trustingClientProperties(ListenerMode mode, TlsStores stores) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, mode.protocol().name);
        p.putAll(trustStore(stores.trustStore()));
        return p;
    }

    /**
     * The TLS part of the cluster's own (super user's) client properties, without bootstrap servers: the trust store
     * on a TLS cluster, and its certificate too under mutual TLS; nothing on a plaintext cluster.
     */
    static Map<String, String> superUserClientProperties(ListenerMode mode, TlsStores stores) {
        if (!mode.tls()) {
            return Map.of();
        }
        Map<String, String> p = trustingClientProperties(mode, stores);
        if (mode == ListenerMode.MUTUAL_TLS) {
            p.putAll(keyStore("", stores.superUserKeyStore()));
        }
        return p;
    }

    /** Every broker's {@code listeners} with extra TLS listeners: the kit's own one plus the extra ones (ids 0..n-1). */
    static Map<Integer, Map<String, String>> brokerListeners(int brokers, Iterable<String> extraListeners) {
        StringBuilder listeners = new StringBuilder("EXTERNAL://localhost:0");
        extraListeners.forEach(name -> listeners.append(',').append(name).append("://localhost:0"));
        Map<Integer, Map<String, String>> perNode = new LinkedHashMap<>();
        for (int id = 0; id < brokers; id++) {
            perNode.put(id, Map.of("listeners", listeners.toString()));
        }
        return perNode;
    }

    private static Map<String, String> keyStore(String prefix, KeyStoreFile store) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put(prefix + SslConfigs.SSL_KEYSTORE_LOCATION_CONFIG, store.path().toString());
        p.put(prefix + SslConfigs.SSL_KEYSTORE_PASSWORD_CONFIG, store.password());
        p.put(prefix + SslConfigs.SSL_KEY_PASSWORD_CONFIG, store.password());
        p.put(prefix + SslConfigs.SSL_KEYSTORE_TYPE_CONFIG, STORE_TYPE);
        return p;
    }

    private static Map<String, String> trustStore(KeyStoreFile store) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put(SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG, store.path().toString());
        p.put(SslConfigs.SSL_TRUSTSTORE_PASSWORD_CONFIG, store.password());
        p.put(SslConfigs.SSL_TRUSTSTORE_TYPE_CONFIG, STORE_TYPE);
        p.put(SslConfigs.SSL_ENDPOINT_IDENTIFICATION_ALGORITHM_CONFIG, "https");
        return p;
    }
}
