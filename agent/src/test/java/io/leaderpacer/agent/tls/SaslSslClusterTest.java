package io.leaderpacer.agent.tls;

import io.leaderpacer.embedded.EmbeddedKafkaCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The agent on a cluster whose listener is SASL over TLS ({@code SASL_SSL}): SCRAM-SHA-512 for the agent's user,
 * hostname verification on, ACLs enforced and only the documented ones granted to the agent. One cluster for the
 * class.
 */
@Tag("cluster")
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class SaslSslClusterTest extends TlsClusterStory {

    private static final String USER = "pacer-agent";
    private static final String PASSWORD = "Scram-Over-Tls-7319";

    private static TestCertificates certs;
    private static EmbeddedKafkaCluster cluster;

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
        return cluster.scramClientProperties(USER, PASSWORD);
    }

    @Override
    List<String> secrets() {
        return List.of(PASSWORD, certs.trustStore().password());
    }
}
