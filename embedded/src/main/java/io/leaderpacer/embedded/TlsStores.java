package io.leaderpacer.embedded;

import io.leaderpacer.testbed.KeyStoreFile;

import java.util.Objects;

/**
 * What an {@link EmbeddedKafkaCluster} needs to serve TLS: the brokers' key store, the trust store every node and
 * client uses, and, for mutual TLS, the certificate the cluster's own admin client authenticates with.
 *
 * <p>Why the cluster does not make its certificates: which certificates exist (expired ones, ones for the wrong
 * host, ones from another CA) is what a TLS test is about, so the test makes them and hands them over. Principals
 * come from the certificates' common names: a certificate {@code CN=pacer-agent,...} is {@code User:pacer-agent}
 * (see {@link TlsSetup#PRINCIPAL_MAPPING_RULES}).
 *
 * @param brokerKeyStore    key and certificate chain of every broker and the controller (their names must cover
 *                          {@code localhost} and {@code 127.0.0.1}: hostname verification is on)
 * @param trustStore        the CA every node and client trusts
 * @param brokerPrincipal   the principal the brokers' certificate maps to (a super user under mutual TLS)
 * @param superUserKeyStore the cluster's own admin identity under mutual TLS; null when not used
 * @param superUserPrincipal the principal {@code superUserKeyStore} maps to; null when not used
 */
public record TlsStores(
        KeyStoreFile brokerKeyStore,
        KeyStoreFile trustStore,
        String brokerPrincipal,
        KeyStoreFile superUserKeyStore,
        String superUserPrincipal) {

    public TlsStores {
        Objects.requireNonNull(brokerKeyStore, "brokerKeyStore");
        Objects.requireNonNull(trustStore, "trustStore");
        Objects.requireNonNull(brokerPrincipal, "brokerPrincipal");
        if ((superUserKeyStore == null) != (superUserPrincipal == null)) {
            throw new IllegalArgumentException("superUserKeyStore and superUserPrincipal go together");
        }
    }

    /** Whether a client certificate for the cluster's own admin client is given (needed for mutual TLS). */
    public boolean hasSuperUser() {
        return superUserKeyStore != null;
    }
}
