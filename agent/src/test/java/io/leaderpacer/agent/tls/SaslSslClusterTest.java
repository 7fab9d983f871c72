package io.leaderpacer.agent.tls;

import io.leaderpacer.embedded.EmbeddedKafkaCluster;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.config.provider.DirectoryConfigProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The agent on a cluster whose listener is SASL over TLS ({@code SASL_SSL}): SCRAM-SHA-512 for the agent's user,
 * hostname verification on, ACLs enforced and only the documented ones granted to the agent. One cluster for the
 * class. The JAAS line is not in the agent's file: Kafka's {@code DirectoryConfigProvider} reads it from a file of
 * its own, as a Kubernetes Secret mounts it (deploy/kubernetes), so every client the agent opens (Admin, the state
 * topics' producer and consumers, its group member) must resolve it.
 */
@Tag("cluster")
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class SaslSslClusterTest extends TlsClusterStory {

    private static final String USER = "pacer-agent";
    private static final String PASSWORD = "Scram-Over-Tls-7319";

    private static TestCertificates certs;
    private static EmbeddedKafkaCluster cluster;
    private static Path secretDir;

    @BeforeAll
    static void startCluster() {
        certs = TestCertificates.create("Leader Pacer Test CA");
        cluster = storyCluster()
                .saslScramWithAcls()
                .tls(certs.clusterStores())
                .build()
                .start();
        cluster.accessControl().createScramUser(USER, PASSWORD);
        prepare(cluster, "User:" + USER);
        try {
            secretDir = Files.createTempDirectory("pacer-secret");
            Files.writeString(
                    secretDir.resolve(SaslConfigs.SASL_JAAS_CONFIG),
                    cluster.scramClientProperties(USER, PASSWORD).get(SaslConfigs.SASL_JAAS_CONFIG));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
        if (certs != null) {
            certs.close();
        }
        if (secretDir != null) {
            try (var files = Files.list(secretDir)) {
                for (Path f : files.toList()) {
                    Files.delete(f);
                }
                Files.delete(secretDir);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    @Override
    EmbeddedKafkaCluster cluster() {
        return cluster;
    }

    @Override
    Map<String, String> agentClientProperties() {
        Map<String, String> p = new LinkedHashMap<>(cluster.scramClientProperties(USER, PASSWORD));
        p.put("config.providers", "dir");
        p.put("config.providers.dir.class", DirectoryConfigProvider.class.getName());
        p.put(SaslConfigs.SASL_JAAS_CONFIG, "${dir:" + secretDir + ":" + SaslConfigs.SASL_JAAS_CONFIG + "}");
        return p;
    }

    @Override
    List<String> secrets() {
        return List.of(PASSWORD, certs.trustStore().password());
    }
}
