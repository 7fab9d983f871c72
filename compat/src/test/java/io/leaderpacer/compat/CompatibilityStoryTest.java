package io.leaderpacer.compat;

import io.leaderpacer.agent.tls.TestCertificates;
import io.leaderpacer.cluster.ProcessKafkaCluster;
import io.leaderpacer.cluster.TlsListener;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The agent's core story on each selected Kafka version: a real KRaft cluster (1 controller, 3 brokers) run as
 * separate processes from that version's own jars, and the agent with its one client (kafka-clients 4.3.1). The
 * agent talks to the brokers' TLS client listener (certificates made at test time); the test's own checks use
 * PLAINTEXT.
 *
 * <p>Select versions with {@code -Dcompat.versions=3.9.1,4.4.0} (the default, as CI runs it) or {@code all}. Each
 * version's checks are written to {@code target/compat-results/kafka-VERSION.md}, the source of
 * docs/COMPATIBILITY.md's table.
 */
@Tag("cluster")
@Timeout(value = 8, unit = TimeUnit.MINUTES)
class CompatibilityStoryTest {

    @TempDir
    Path dir;

    static Stream<String> versions() {
        return KafkaVersions.selected().stream();
    }

    @ParameterizedTest(name = "Kafka {0}")
    @MethodSource("versions")
    void agentCoreStory_onEachKafkaVersion_passesEveryCheck(String version) throws Exception {
        CheckTable table = new CheckTable(version);
        long t0 = System.nanoTime();
        long started = 0;
        try (TestCertificates certs = TestCertificates.create("Leader Pacer Test CA");
                ProcessKafkaCluster cluster = ProcessKafkaCluster.builder()
                        .brokers(3)
                        .classpath(KafkaVersions.classpath(version))
                        .brokerHeap("384m")
                        // Small follower fetches and short quota windows, so that the throttle spreads broker 2's
                        // catch-up.
                        .brokerConfig("replica.fetch.max.bytes", "16384")
                        .brokerConfig("replica.fetch.response.max.bytes", "65536")
                        .brokerConfig("replication.quota.window.num", "2")
                        // Fewer internal partitions: less to elect, same story.
                        .brokerConfig("transaction.state.log.num.partitions", "3")
                        // An SSL client listener (hostname verification on) for the agent; the test's own admin client
                        // and
                        // the brokers among themselves stay on PLAINTEXT.
                        .tlsListener(TlsListener.oneWay(certs.brokerKeyStore(), certs.trustStore()))
                        .startTimeout(Duration.ofSeconds(150))
                        .build()) {
            cluster.start();
            started = System.nanoTime();
            try (Admin admin =
                    Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers()))) {
                VersionStory story = new VersionStory(version, cluster, admin, dir, table);
                try {
                    story.runAll(story.checks());
                } finally {
                    story.closeAgent();
                }
            }
        } catch (RuntimeException e) {
            if (started == 0) {
                table.fail("cluster from the version's jars", e);
            }
            throw e;
        } finally {
            long end = System.nanoTime();
            table.write(
                    Path.of(System.getProperty("compat.results", "target/compat-results")),
                    String.format(
                            Locale.ROOT,
                            "Cluster start %.1f s, whole story %.1f s (measured, this run).",
                            started == 0 ? 0 : (started - t0) / 1e9,
                            (end - t0) / 1e9));
        }
        assertThat(table.rows())
                .isNotEmpty()
                .allSatisfy(r -> assertThat(r.result())
                        .as("Kafka %s, %s: %s", version, r.check(), r.seen())
                        .isEqualTo("PASS"));
    }
}
