package io.leaderpacer.embedded;

import io.leaderpacer.testbed.KeyStoreFile;
import io.leaderpacer.testbed.ServerDefaults;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Settings for an {@link EmbeddedKafkaCluster}; every one has a default that suits tests and the demo.
 *
 * <p>Why a builder of its own: the server properties a test kit cluster needs (fast re-registration, few threads,
 * internal topics sized to the broker count) and the listener set-up (SASL, TLS, mutual TLS, extra listeners) are
 * decided here, once, before anything starts, so that a cluster never runs with a half-valid combination.
 */
public final class EmbeddedClusterBuilder {
    /** Number of brokers (ids 0..n-1). */
    int brokers = 3;
    /** Whether the controller runs Kafka's own preferred-leader task (the agent wants it off). */
    boolean autoLeaderRebalance = false;
    /** Extra server properties, applied last (they win over the defaults). */
    final Map<String, String> extra = new LinkedHashMap<>();
    /** Where to create the data directory; null = tmpfs when available. */
    Path baseDirectory;
    /** Whether to turn Kafka's server logging down to warnings. */
    boolean quietLogs = true;
    /** Whether clients authenticate with SASL/SCRAM and ACLs are enforced (default: neither). */
    boolean saslScramWithAcls;
    /** The stores of a TLS listener; null = plaintext. */
    TlsStores tlsStores;
    /** Whether TLS clients must present a certificate (mutual TLS, with ACLs). */
    boolean mutualTls;
    /** Extra TLS listeners: name to the key store each presents. */
    final Map<String, KeyStoreFile> extraListeners = new LinkedHashMap<>();

    EmbeddedClusterBuilder() {}

    /** Number of brokers, 1 or more (default 3). */
    public EmbeddedClusterBuilder brokers(int count) {
        if (count < 1) {
            throw new IllegalArgumentException("brokers must be >= 1, was " + count);
        }
        this.brokers = count;
        return this;
    }

    /** Kafka's {@code auto.leader.rebalance.enable} (default false: the agent does that job). */
    public EmbeddedClusterBuilder autoLeaderRebalance(boolean enabled) {
        this.autoLeaderRebalance = enabled;
        return this;
    }

    /** Any server property for every node (controller and brokers); wins over the defaults. */
    public EmbeddedClusterBuilder serverProperty(String key, String value) {
        extra.put(key, value);
        return this;
    }

    /** Parent directory of the data directory (default: /dev/shm when writable, else java.io.tmpdir). */
    public EmbeddedClusterBuilder baseDirectory(Path directory) {
        this.baseDirectory = directory;
        return this;
    }

    /** Whether to turn Kafka's server logs down to warnings (default true). */
    public EmbeddedClusterBuilder quietLogs(boolean quiet) {
        this.quietLogs = quiet;
        return this;
    }

    /**
     * Secures the cluster: SASL on every listener, SCRAM-SHA-512 for ordinary users (created with
     * {@link EmbeddedKafkaCluster#accessControl()}), KRaft's {@code StandardAuthorizer} with nothing allowed
     * without an ACL, and a super user for the cluster's own operations ({@link EmbeddedKafkaCluster#adminClientProperties()}).
     * Without this call the cluster is plaintext with no authorizer.
     */
    public EmbeddedClusterBuilder saslScramWithAcls() {
        this.saslScramWithAcls = true;
        return this;
    }

    /**
     * Puts the clients' listener (also used between brokers) on TLS with hostname verification, with these
     * stores. Alone: {@link ListenerMode#SSL}, no client authentication, no authorizer. With {@link
     * #saslScramWithAcls()}: {@link ListenerMode#SASL_SSL}.
     */
    public EmbeddedClusterBuilder tls(TlsStores stores) {
        this.tlsStores = Objects.requireNonNull(stores, "stores");
        return this;
    }

    /**
     * Mutual TLS ({@link ListenerMode#MUTUAL_TLS}): TLS as {@link #tls(TlsStores)}, every client (and broker)
     * must present a certificate signed by the trusted CA, its common name is its principal, and ACLs are
     * enforced with nothing allowed by default ({@link EmbeddedKafkaCluster#accessControl()}); the brokers'
     * and the super user's principals are super users.
     */
    public EmbeddedClusterBuilder mutualTls(TlsStores stores) {
        tls(stores);
        this.mutualTls = true;
        return this;
    }

    /**
     * An extra TLS listener on every broker that presents its own certificate (e.g. an expired one, or one
     * issued for another host); its addresses: {@link EmbeddedKafkaCluster#listenerBootstrapServers(String)}.
     * Only on a TLS cluster.
     */
    public EmbeddedClusterBuilder extraTlsListener(String name, KeyStoreFile keyStore) {
        if (!name.matches("[A-Z][A-Z0-9_]*") || name.equals("EXTERNAL") || name.equals("CONTROLLER")) {
            throw new IllegalArgumentException(
                    "listener name must be upper case letters, digits and _, not EXTERNAL" + " or CONTROLLER: " + name);
        }
        extraListeners.put(name, Objects.requireNonNull(keyStore, "keyStore"));
        return this;
    }

    ListenerMode mode() {
        if (!extraListeners.isEmpty() && tlsStores == null) {
            throw new IllegalStateException("extra TLS listeners need tls(...) or mutualTls(...)");
        }
        return ListenerMode.of(saslScramWithAcls, tlsStores != null, mutualTls);
    }

    /** An unstarted cluster; call {@link EmbeddedKafkaCluster#start()}. */
    public EmbeddedKafkaCluster build() {
        return new EmbeddedKafkaCluster(this);
    }

    Map<String, String> serverProperties() {
        // Fast re-registration after a restart, internal topics sized to the broker count, few threads: the
        // machine is small and several clusters may run in one test JVM over time.
        Map<String, String> p = ServerDefaults.smallCluster(brokers);
        p.put("auto.leader.rebalance.enable", Boolean.toString(autoLeaderRebalance));
        if (saslScramWithAcls) {
            p.putAll(SaslScramSetup.serverProperties());
        }
        ListenerMode mode = mode();
        if (mode.tls()) {
            p.put("listener.security.protocol.map", TlsSetup.securityProtocolMap(mode, extraListeners.keySet()));
            p.putAll(TlsSetup.serverProperties(mode, tlsStores));
            extraListeners.forEach((name, store) -> p.putAll(TlsSetup.extraListenerProperties(name, store)));
        }
        p.putAll(extra);
        return p;
    }
}
