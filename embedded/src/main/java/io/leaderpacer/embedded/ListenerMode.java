package io.leaderpacer.embedded;

import org.apache.kafka.common.security.auth.SecurityProtocol;

/**
 * How clients reach an {@link EmbeddedKafkaCluster} and who they are to it.
 *
 * <p>Why an enum: the cluster's listener settings, its authorizer, and the client properties it hands out all
 * follow from this one choice; spreading it over flags would allow combinations that were never tested.
 */
public enum ListenerMode {
    /** No encryption, no authentication, no authorizer (the demo, most tests). */
    PLAINTEXT(SecurityProtocol.PLAINTEXT, false),
    /** SASL (SCRAM-SHA-512 for users, PLAIN for the cluster itself) over plaintext, ACLs enforced. */
    SASL_PLAINTEXT(SecurityProtocol.SASL_PLAINTEXT, true),
    /** TLS with hostname verification; clients are not authenticated and no authorizer runs. */
    SSL(SecurityProtocol.SSL, false),
    /** SASL as in {@link #SASL_PLAINTEXT}, over TLS with hostname verification; ACLs enforced. */
    SASL_SSL(SecurityProtocol.SASL_SSL, true),
    /** TLS with client certificates required; principals from the certificates' common names; ACLs enforced. */
    MUTUAL_TLS(SecurityProtocol.SSL, true);

    /** Kafka's {@code security.protocol} of the clients' listener. */
    private final SecurityProtocol protocol;
    /** Whether an authorizer runs with nothing allowed by default. */
    private final boolean authorizer;

    ListenerMode(SecurityProtocol protocol, boolean authorizer) {
        this.protocol = protocol;
        this.authorizer = authorizer;
    }

    /** The mode of a cluster built with SASL/SCRAM or not, TLS or not, client certificates required or not. */
    static ListenerMode of(boolean sasl, boolean tls, boolean mutualTls) {
        if (mutualTls && sasl) {
            throw new IllegalStateException("mutualTls(...) and saslScramWithAcls() cannot be combined");
        }
        if (mutualTls) {
            return MUTUAL_TLS;
        }
        if (tls) {
            return sasl ? SASL_SSL : SSL;
        }
        return sasl ? SASL_PLAINTEXT : PLAINTEXT;
    }

    /** The {@code security.protocol} a client of this cluster sets. */
    public SecurityProtocol protocol() {
        return protocol;
    }

    /** Whether ACLs are enforced. */
    public boolean hasAuthorizer() {
        return authorizer;
    }

    /** Whether the clients' listener speaks TLS. */
    public boolean tls() {
        return protocol == SecurityProtocol.SSL || protocol == SecurityProtocol.SASL_SSL;
    }

    /** Whether clients authenticate with SASL. */
    public boolean sasl() {
        return this == SASL_PLAINTEXT || this == SASL_SSL;
    }
}
