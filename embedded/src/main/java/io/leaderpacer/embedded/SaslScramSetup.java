package io.leaderpacer.embedded;

import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.security.auth.SecurityProtocol;
import org.apache.kafka.common.test.JaasUtils;
import org.apache.kafka.common.test.TestKitNodes;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The settings that turn the embedded cluster into a secured one: SASL on every listener, SCRAM-SHA-512 for
 * ordinary clients, ACLs enforced by KRaft's {@code StandardAuthorizer} with nothing allowed by default.
 *
 * <p>Why this shape: Kafka's test kit only knows how to secure a cluster with SASL/PLAIN (it writes a JAAS file
 * whose {@code KafkaServer} section holds one super user, {@code plain-admin}, and its password, and points the JVM
 * at it). SCRAM users, on the other hand, live in the cluster metadata and are created through the Admin API once
 * the cluster runs. So the brokers and the controller talk to each other, and the test's own set-up talks to the
 * cluster, as the kit's PLAIN super user, while the mechanism list also enables SCRAM-SHA-512 for the users that
 * tests create: the agent under test then authenticates exactly as it would in production, as an ordinary user.
 * Both listeners (broker and controller) use SASL so the controller, which authorizes forwarded requests, can
 * tell its brokers from anyone else.
 */
final class SaslScramSetup {

    /** The mechanism ordinary clients use. */
    static final String CLIENT_MECHANISM = "SCRAM-SHA-512";
    /** The mechanism of the kit's super user (the only one the kit can bootstrap before the cluster runs). */
    static final String SUPER_USER_MECHANISM = "PLAIN";
    /** The super user, as the kit's JAAS file defines it; brokers, controller and the test's set-up use it. */
    static final String SUPER_USER = JaasUtils.KAFKA_PLAIN_ADMIN;

    private SaslScramSetup() {}

    /** Both listeners (clients' and controller's) speak SASL over plaintext. */
    static void applyTo(TestKitNodes.Builder nodes) {
        nodes.setBrokerSecurityProtocol(SecurityProtocol.SASL_PLAINTEXT)
                .setControllerSecurityProtocol(SecurityProtocol.SASL_PLAINTEXT);
    }

    /** Server properties for every node: mechanisms, inter-node mechanism, authorizer, deny by default, super user. */
    static Map<String, String> serverProperties() {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("sasl.enabled.mechanisms", SUPER_USER_MECHANISM + "," + CLIENT_MECHANISM);
        p.put("sasl.mechanism.inter.broker.protocol", SUPER_USER_MECHANISM);
        p.put("sasl.mechanism.controller.protocol", SUPER_USER_MECHANISM);
        p.put("authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer");
        p.put("allow.everyone.if.no.acl.found", "false");
        p.put("super.users", "User:" + SUPER_USER);
        return p;
    }

    /** Client properties (without bootstrap servers) of the super user, for the test's own set-up. */
    static Map<String, String> superUserClientProperties() {
        return clientProperties(
                SUPER_USER_MECHANISM,
                "org.apache.kafka.common.security.plain.PlainLoginModule",
                SUPER_USER,
                JaasUtils.KAFKA_PLAIN_ADMIN_PASSWORD);
    }

    /** Client properties (without bootstrap servers) of an ordinary user authenticating with SCRAM-SHA-512. */
    static Map<String, String> scramClientProperties(String user, String password) {
        return clientProperties(
                CLIENT_MECHANISM, "org.apache.kafka.common.security.scram.ScramLoginModule", user, password);
    }

    private static Map<String, String> clientProperties(
            String mechanism, String loginModule, String user, String password) {
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(password, "password");
        Map<String, String> p = new LinkedHashMap<>();
        p.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, SecurityProtocol.SASL_PLAINTEXT.name);
        p.put(SaslConfigs.SASL_MECHANISM, mechanism);
        p.put(
                SaslConfigs.SASL_JAAS_CONFIG,
                loginModule + " required username=\"" + jaasQuoted(user) + "\" password=\"" + jaasQuoted(password)
                        + "\";");
        return p;
    }

    /** A JAAS option value goes between double quotes; a quote or backslash inside it must be escaped. */
    private static String jaasQuoted(String value) {
        return value.replace("\\", "\\\\").replace("\"", "\\\"");
    }
}
