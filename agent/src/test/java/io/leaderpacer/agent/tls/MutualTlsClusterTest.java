package io.leaderpacer.agent.tls;

import io.leaderpacer.agent.cli.CommandRunner;
import io.leaderpacer.agent.cli.PlanCommand;
import io.leaderpacer.embedded.EmbeddedKafkaCluster;
import io.leaderpacer.testbed.KeyStoreFile;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The agent on a mutual-TLS cluster: every client presents a certificate, its common name is its principal
 * ({@code ssl.principal.mapping.rules}), ACLs are enforced and the agent's principal {@code User:pacer-agent} has only
 * the documented ones. The agent's identity is given inline in PEM ({@code ssl.keystore.key}), the form whose key
 * must never show. Also the one-line errors of a missing client certificate and of a wrong key store password. One
 * cluster for the class.
 */
@Tag("cluster")
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class MutualTlsClusterTest extends TlsClusterStory {

    private static final String AGENT = "pacer-agent";

    private static TestCertificates certs;
    private static TestCertificates.PemIdentity agentIdentity;
    private static EmbeddedKafkaCluster cluster;

    @BeforeAll
    static void startCluster() {
        certs = TestCertificates.create("Leader Pacer Test CA");
        agentIdentity = certs.clientPem(AGENT);
        cluster = storyCluster().mutualTls(certs.clusterStores()).build().start();
        prepare(cluster, "User:" + AGENT);
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
        if (certs != null) {
            certs.close();
        }
    }

    @Override
    EmbeddedKafkaCluster cluster() {
        return cluster;
    }

    @Override
    Map<String, String> agentClientProperties() {
        Map<String, String> p = new LinkedHashMap<>(cluster.tlsClientProperties());
        p.put("ssl.keystore.type", "PEM");
        p.put("ssl.keystore.certificate.chain", agentIdentity.certificateChain());
        p.put("ssl.keystore.key", agentIdentity.privateKey());
        return p;
    }

    @Override
    List<String> secrets() {
        List<String> s = new ArrayList<>(List.of(certs.trustStore().password()));
        // The whole key and each of its base64 lines: a message must not carry even a piece of it.
        s.add(agentIdentity.privateKey().trim());
        agentIdentity
                .privateKey()
                .lines()
                .filter(l -> !l.startsWith("-----") && l.length() >= 16)
                .forEach(s::add);
        return s;
    }

    @Test
    void noClientCertificate_saysTheBrokerRequiresOne() throws Exception {
        Map<String, String> client = cluster.tlsClientProperties();

        CommandRunner.Result r = plan(client);

        assertThat(r.exitCode()).as(r.err()).isEqualTo(PlanCommand.EXIT_CLUSTER);
        assertThat(r.err().lines())
                .containsExactly("Error: cannot reach the cluster: TLS handshake with the Kafka cluster at "
                        + client.get("bootstrap.servers")
                        + " failed: the broker requires a client certificate (mutual TLS, alert"
                        + " bad_certificate) and none is configured: set ssl.keystore.location and ssl.keystore.password (or"
                        + " ssl.keystore.type=PEM with ssl.keystore.certificate.chain and ssl.keystore.key)");
    }

    @Test
    void wrongKeyStorePassword_namesTheKeyStoreAndThePasswordSetting() throws Exception {
        KeyStoreFile store = certs.clientKeyStore(AGENT);
        Map<String, String> client = new LinkedHashMap<>(cluster.tlsClientProperties());
        String wrong = "Not-The-Store-Password-55";
        client.put("ssl.keystore.location", store.path().toString());
        client.put("ssl.keystore.password", wrong);
        client.put("ssl.keystore.type", "PKCS12");

        CommandRunner.Result r = plan(client);

        assertThat(r.exitCode()).as(r.err()).isEqualTo(PlanCommand.EXIT_USAGE);
        assertThat(r.err().lines())
                .singleElement()
                .asString()
                .endsWith(": cannot load the TLS key store " + store.path()
                        + " (ssl.keystore.location) for the Kafka cluster at " + client.get("bootstrap.servers")
                        + ": the password is wrong (ssl.keystore.password)");
        assertThat(r.err()).doesNotContain(wrong).doesNotContain(store.password());
    }

    private CommandRunner.Result plan(Map<String, String> client) throws Exception {
        Path f = write("failing.properties", client);
        CommandRunner.Result r = CommandRunner.run(new PlanCommand(), "--config", f.toString());
        assertNoSecret(r.out() + r.err());
        return r;
    }
}
