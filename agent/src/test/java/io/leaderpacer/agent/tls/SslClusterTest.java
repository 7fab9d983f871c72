package io.leaderpacer.agent.tls;

import ch.qos.logback.classic.Level;
import io.leaderpacer.agent.AgentAssembly;
import io.leaderpacer.agent.CapturedLogs;
import io.leaderpacer.agent.cli.CommandRunner;
import io.leaderpacer.agent.cli.PlanCommand;
import io.leaderpacer.agent.config.AgentPropertiesFile;
import io.leaderpacer.agent.core.AgentState;
import io.leaderpacer.agent.kafka.TlsProblemException;
import io.leaderpacer.embedded.EmbeddedKafkaCluster;
import io.leaderpacer.engine.config.PacerConfig;
import io.leaderpacer.testbed.KeyStoreFile;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * The agent on a cluster whose listener is TLS with hostname verification ({@code security.protocol=SSL}, no client
 * authentication), and the one-line errors of the handshakes that must fail: an untrusted, an expired and a misnamed
 * broker certificate, and a plaintext client at the TLS port. One cluster for the class; two extra TLS listeners
 * on its brokers present the expired and the misnamed certificate.
 */
@Tag("cluster")
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class SslClusterTest extends TlsClusterStory {

    private static TestCertificates certs;
    /** Another CA: its trust store does not trust the cluster. */
    private static TestCertificates otherCa;

    private static EmbeddedKafkaCluster cluster;

    @BeforeAll
    static void startCluster() {
        certs = TestCertificates.create("Leader Pacer Test CA");
        otherCa = TestCertificates.create("Other CA");
        cluster = storyCluster()
                .tls(certs.clusterStores())
                .extraTlsListener("EXPIRED", certs.expiredBrokerKeyStore())
                .extraTlsListener("OTHERHOST", certs.otherHostBrokerKeyStore())
                .build()
                .start();
        prepare(cluster, null);
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
        if (certs != null) {
            certs.close();
            otherCa.close();
        }
    }

    @Override
    EmbeddedKafkaCluster cluster() {
        return cluster;
    }

    @Override
    Map<String, String> agentClientProperties() {
        return cluster.tlsClientProperties();
    }

    @Override
    List<String> secrets() {
        return List.of(certs.trustStore().password(), otherCa.trustStore().password());
    }

    @Test
    void wrongTrustStore_saysTheBrokersCertificateIsNotTrusted_withItsSubject() throws Exception {
        Map<String, String> client = withTrustStore(cluster.tlsClientProperties(), otherCa.trustStore());
        String bootstrap = client.get("bootstrap.servers");

        String error = planError(client, PlanCommand.EXIT_CLUSTER);

        assertThat(error)
                .isEqualTo("Error: cannot reach the cluster: TLS handshake with the Kafka cluster at " + bootstrap
                        + " failed: the broker's certificate is not trusted (subject "
                        + TestCertificates.subject(TestCertificates.BROKER)
                        + ", issued by " + TestCertificates.subject("Leader Pacer Test CA") + "): the trust store "
                        + client.get("ssl.truststore.location")
                        + " (ssl.truststore.location) holds no CA that signed it;"
                        + " add that CA to the trust store");
    }

    @Test
    void expiredBrokerCertificate_saysSoWithItsExpiry() throws Exception {
        Map<String, String> client = new LinkedHashMap<>(cluster.tlsClientProperties());
        client.put("bootstrap.servers", cluster.listenerBootstrapServers("EXPIRED"));

        String error = planError(client, PlanCommand.EXIT_CLUSTER);

        assertThat(error)
                .startsWith("Error: cannot reach the cluster: TLS handshake with the Kafka cluster at "
                        + client.get("bootstrap.servers") + " failed: the broker's certificate has expired (subject "
                        + TestCertificates.subject(TestCertificates.BROKER) + ", valid until ")
                .endsWith("): the broker needs a new certificate");
    }

    @Test
    void brokerCertificateForAnotherHost_namesTheHostAndTheCertificatesNames() throws Exception {
        Map<String, String> client = new LinkedHashMap<>(cluster.tlsClientProperties());
        client.put("bootstrap.servers", cluster.listenerBootstrapServers("OTHERHOST"));

        String error = planError(client, PlanCommand.EXIT_CLUSTER);

        assertThat(error)
                .isEqualTo("Error: cannot reach the cluster: TLS handshake with the Kafka cluster at "
                        + client.get("bootstrap.servers")
                        + " failed: the broker's certificate is not issued for 127.0.0.1 (subject "
                        + TestCertificates.subject(TestCertificates.BROKER)
                        + ", it names kafka.invalid): put a name the certificate"
                        + " lists in bootstrap.servers, or give the broker a certificate for 127.0.0.1 (hostname verification is on:"
                        + " ssl.endpoint.identification.algorithm=https)");
    }

    @Test
    void plaintextClientAtTheTlsPort_saysTheBrokerSpeaksTls() throws Exception {
        String bootstrap = cluster.bootstrapServers();
        Map<String, String> client = Map.of("bootstrap.servers", bootstrap, "pacer.request.timeout.ms", "3000");

        String error = planError(client, PlanCommand.EXIT_CLUSTER);

        assertThat(error)
                .isEqualTo("Error: cannot reach the cluster: the broker at "
                        + bootstrap.split(",")[0] + " speaks TLS, but"
                        + " security.protocol is PLAINTEXT: set security.protocol=SSL and ssl.truststore.location (and"
                        + " ssl.truststore.password) to a trust store with the CA of its certificate (subject "
                        + TestCertificates.subject(TestCertificates.BROKER) + ")");
    }

    @Test
    void agentWithWrongTrustStore_refusesToStart_withTheSameOneLineReason() throws Exception {
        Map<String, String> file = withTrustStore(cluster.tlsClientProperties(), otherCa.trustStore());
        file.put("pacer.http.enabled", "false");
        try (CapturedLogs logs = CapturedLogs.of("io.leaderpacer", Level.DEBUG);
                AgentAssembly assembly = AgentAssembly.open(
                        AgentPropertiesFile.fromMap("agent.properties", file), () -> PacerConfig.defaults(), b -> {})) {
            assembly.agent().start();
            Throwable refusal;
            try {
                assembly.agent().termination().get(60, TimeUnit.SECONDS);
                refusal = fail("the agent ran");
            } catch (ExecutionException e) {
                refusal = e.getCause();
            }
            assertThat(refusal).isInstanceOf(TlsProblemException.class);
            assertThat(refusal.getMessage())
                    .contains("the broker's certificate is not trusted (subject "
                            + TestCertificates.subject(TestCertificates.BROKER));
            assertThat(assembly.agent().state()).isEqualTo(AgentState.REFUSED);
            assertThat(assembly.agent().startupProblem().orElseThrow())
                    .startsWith("refused to start: TLS handshake with");
            List<String> errors = logs.events().stream()
                    .filter(e -> e.getLevel() == Level.ERROR)
                    .map(e -> e.getFormattedMessage())
                    .toList();
            assertThat(errors)
                    .singleElement()
                    .asString()
                    .startsWith("cannot start: TLS handshake with the Kafka cluster at")
                    .doesNotContain("Exception")
                    .doesNotContain("\n");
            assertNoSecret(logs.text() + refusal.getMessage());
        }
    }

    /** Runs {@code pacer plan} with these client properties; returns its one error line after checking the exit status. */
    private String planError(Map<String, String> client, int exit) throws Exception {
        Path f = write("failing.properties", client);
        CommandRunner.Result r = CommandRunner.run(new PlanCommand(), "--config", f.toString());
        assertThat(r.exitCode()).as(r.err()).isEqualTo(exit);
        assertThat(r.err().lines()).as("one line, no stack trace").hasSize(1);
        assertNoSecret(r.out() + r.err());
        return r.err().lines().findFirst().orElseThrow();
    }

    private static Map<String, String> withTrustStore(Map<String, String> client, KeyStoreFile trustStore) {
        Map<String, String> out = new LinkedHashMap<>(client);
        out.put("ssl.truststore.location", trustStore.path().toString());
        out.put("ssl.truststore.password", trustStore.password());
        return out;
    }
}
