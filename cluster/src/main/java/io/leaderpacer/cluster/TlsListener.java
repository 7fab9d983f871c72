package io.leaderpacer.cluster;

import io.leaderpacer.testbed.KeyStoreFile;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.common.config.SslConfigs;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * An {@code SSL} client listener on every broker, next to the PLAINTEXT one the brokers and the controller use
 * between themselves, and optionally mutual TLS on it.
 *
 * <p>Why a second listener rather than TLS everywhere: what a TLS test checks is the client's side (the handshake,
 * hostname verification, the client certificate); the brokers' own traffic stays PLAINTEXT on 127.0.0.1, which keeps
 * a start as quick as before and works the same on every Kafka version. The cluster does not make certificates:
 * which certificates exist is what a TLS test is about, so the test makes them and hands them over.
 *
 * @param brokerKeyStore  key and certificate of every broker; its names must cover {@code 127.0.0.1} (the address
 *                        advertised), since every client here verifies the host name
 * @param trustStore      the CA every client trusts (and, under mutual TLS, the brokers trust for client certificates)
 * @param clientKeyStore  the certificate the cluster's own admin client presents; non-null turns on mutual TLS
 *                        ({@code ssl.client.auth=required}); null for one-way TLS
 */
public record TlsListener(KeyStoreFile brokerKeyStore, KeyStoreFile trustStore, KeyStoreFile clientKeyStore) {

    /** Listener name, and security protocol, of the client listener. */
    static final String NAME = "SSL";
    /** Kafka's prefix for settings of that listener alone. */
    private static final String PREFIX = "listener.name.ssl.";

    public TlsListener {
        Objects.requireNonNull(brokerKeyStore, "brokerKeyStore");
        Objects.requireNonNull(trustStore, "trustStore");
    }

    /** One-way TLS: clients check the brokers' certificate, the brokers ask for none. */
    public static TlsListener oneWay(KeyStoreFile brokerKeyStore, KeyStoreFile trustStore) {
        return new TlsListener(brokerKeyStore, trustStore, null);
    }

    /** Mutual TLS: every client must present a certificate the trust store's CA signed. */
    public static TlsListener mutual(
            KeyStoreFile brokerKeyStore, KeyStoreFile trustStore, KeyStoreFile clientKeyStore) {
        return new TlsListener(brokerKeyStore, trustStore, Objects.requireNonNull(clientKeyStore, "clientKeyStore"));
    }

    public boolean mutualTls() {
        return clientKeyStore != null;
    }

    /** The broker's settings of the listener, all prefixed with its name so that no other listener changes. */
    Map<String, String> serverProperties() {
        Map<String, String> p = new LinkedHashMap<>();
        keyStore(p, PREFIX, brokerKeyStore);
        p.put(
                PREFIX + SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG,
                trustStore.path().toString());
        p.put(PREFIX + SslConfigs.SSL_TRUSTSTORE_PASSWORD_CONFIG, trustStore.password());
        p.put(PREFIX + SslConfigs.SSL_TRUSTSTORE_TYPE_CONFIG, "PKCS12");
        p.put(PREFIX + "ssl.client.auth", mutualTls() ? "required" : "none");
        return p;
    }

    /** Client settings (without bootstrap servers): trust the CA, verify the host name, and under mutual TLS present the client certificate. */
    Map<String, String> clientProperties() {
        Map<String, String> p = new LinkedHashMap<>();
        p.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, NAME);
        p.put(SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG, trustStore.path().toString());
        p.put(SslConfigs.SSL_TRUSTSTORE_PASSWORD_CONFIG, trustStore.password());
        p.put(SslConfigs.SSL_TRUSTSTORE_TYPE_CONFIG, "PKCS12");
        p.put(SslConfigs.SSL_ENDPOINT_IDENTIFICATION_ALGORITHM_CONFIG, "https");
        if (mutualTls()) {
            keyStore(p, "", clientKeyStore);
        }
        return p;
    }

    private static void keyStore(Map<String, String> p, String prefix, KeyStoreFile store) {
        p.put(prefix + SslConfigs.SSL_KEYSTORE_LOCATION_CONFIG, store.path().toString());
        p.put(prefix + SslConfigs.SSL_KEYSTORE_PASSWORD_CONFIG, store.password());
        p.put(prefix + SslConfigs.SSL_KEY_PASSWORD_CONFIG, store.password());
        p.put(prefix + SslConfigs.SSL_KEYSTORE_TYPE_CONFIG, "PKCS12");
    }

    @Override
    public String toString() {
        return "TlsListener[" + (mutualTls() ? "mutual TLS" : "one-way TLS") + ", broker " + brokerKeyStore + ", trust "
                + trustStore + (mutualTls() ? ", client " + clientKeyStore : "") + "]";
    }
}
