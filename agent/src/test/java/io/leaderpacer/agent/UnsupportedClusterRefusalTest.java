package io.leaderpacer.agent;

import ch.qos.logback.classic.Level;
import io.leaderpacer.agent.core.AgentState;
import io.leaderpacer.agent.kafka.UnsupportedClusterException;
import io.leaderpacer.embedded.EmbeddedKafkaCluster;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ElectLeadersResult;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.errors.UnsupportedVersionException;
import org.apache.kafka.common.internals.KafkaFutureImpl;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A cluster without an API the agent's runs need is refused at start, in one line naming its version and the API.
 *
 * <p>Why one faked answer: every Kafka the agent is tested on (3.9.1 to 4.4.0, see the compat module) serves every
 * API it needs, so no real cluster can show this. The cluster, the client and every other answer stay real; only
 * the preferred election's answer is replaced by the "unsupported version" error a broker without the API gives.
 * ZooKeeper mode, which a real cluster can show, is tested on a real Kafka 3.9.1 in the compat module.
 */
@Tag("cluster")
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class UnsupportedClusterRefusalTest {

    private static EmbeddedKafkaCluster cluster;

    @BeforeAll
    static void startCluster() {
        cluster = EmbeddedKafkaCluster.builder().brokers(1).build().start();
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void brokerWithoutElectLeaders_agentRefusesToStart_namingTheVersionAndTheApi() throws Exception {
        Admin admin = withoutElectLeaders(cluster.admin());
        try (CapturedLogs logs = CapturedLogs.of("io.leaderpacer", Level.INFO);
                PacerAgent agent = PacerAgent.builder(admin)
                        .clusterLabel(cluster.bootstrapServers())
                        .build()) {
            agent.start();
            assertThatThrownBy(() -> agent.termination().get(60, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class)
                    .cause()
                    .isInstanceOf(UnsupportedClusterException.class)
                    // The in-JVM kit runs Kafka 4.3 with its unstable metadata versions enabled, so the level it
                    // reports
                    // is not fixed here; the compat module checks the exact version on each real release.
                    .hasMessageMatching("the cluster at " + Pattern.quote(cluster.bootstrapServers())
                            + " \\(Kafka 4\\.\\d \\(metadata.version 4\\.\\d-IV\\d\\)\\) does not support the ElectLeaders API,"
                            + " which the agent needs for the preferred-leader elections");
            assertThat(agent.state()).isEqualTo(AgentState.REFUSED);
            assertThat(agent.history()).as("no run").isEmpty();
            assertThat(logs.events()).anySatisfy(e -> {
                assertThat(e.getLevel()).isEqualTo(Level.ERROR);
                assertThat(e.getFormattedMessage())
                        .startsWith("refusing to start: the cluster at")
                        .doesNotContain("\n");
                assertThat(e.getThrowableProxy()).isNull();
            });
        }
    }

    @Test
    void kraftClusterWithEveryApi_isReadyAndItsVersionIsLogged() throws Exception {
        try (CapturedLogs logs = CapturedLogs.of("io.leaderpacer", Level.INFO);
                PacerAgent agent = PacerAgent.builder(cluster.admin())
                        .clusterLabel(cluster.bootstrapServers())
                        .build()) {
            agent.start();
            Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> agent.state() == AgentState.RUNNING);
            assertThat(logs.events())
                    .anySatisfy(e -> assertThat(e.getFormattedMessage())
                            .containsPattern("connected to " + Pattern.quote(cluster.bootstrapServers())
                                    + ": Kafka 4\\.\\d \\(metadata.version 4\\.\\d-IV\\d\\), 1 brokers"));
        }
    }

    /** The real client, except that every preferred election is answered as by a broker without the API. */
    private static Admin withoutElectLeaders(Admin real) {
        return (Admin) Proxy.newProxyInstance(
                Admin.class.getClassLoader(), new Class<?>[] {Admin.class}, (proxy, method, args) -> {
                    if (method.getName().equals("electLeaders")) {
                        KafkaFutureImpl<Object> failed = new KafkaFutureImpl<>();
                        failed.completeExceptionally(
                                new UnsupportedVersionException("The node does not support ELECT_LEADERS"));
                        Constructor<ElectLeadersResult> c =
                                ElectLeadersResult.class.getDeclaredConstructor(KafkaFuture.class);
                        c.setAccessible(true);
                        return c.newInstance(failed);
                    }
                    try {
                        return method.invoke(real, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}
