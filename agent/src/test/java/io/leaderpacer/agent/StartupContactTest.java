package io.leaderpacer.agent;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import io.leaderpacer.engine.config.PacerConfig;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.junit.jupiter.api.Test;

import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A wrong bootstrap address is visible at once: the first attempt is logged when it starts, /status shows it as
 * pending, and it fails after the short contact time-out, not after the 30 s request time-out.
 *
 * <p>Every wait and every bound on elapsed time is one of the two configured time-outs, not a wall-clock figure a
 * busy machine can miss: the first attempt is logged before it can fail (the contact time-out), and it fails before
 * the request time-out.
 */
class StartupContactTest {

    private static final Duration CONTACT_TIMEOUT = Duration.ofSeconds(2);
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);

    @Test
    void unreachableCluster_firstAttemptLoggedAtOnce_pendingInStatus_failsWithinTheContactTimeOut() throws Exception {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0)) {
            closedPort = s.getLocalPort();
        }
        String bootstrap = "127.0.0.1:" + closedPort;
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap));
                CapturedLogs logs = CapturedLogs.of("io.leaderpacer", Level.INFO);
                PacerAgent agent = PacerAgent.builder(admin)
                        .basePolicy(PacerConfig.defaults())
                        .requestTimeout(REQUEST_TIMEOUT)
                        .contactTimeout(CONTACT_TIMEOUT)
                        .clusterLabel(bootstrap)
                        .build()) {
            long start = System.nanoTime();
            agent.start();

            await().atMost(CONTACT_TIMEOUT)
                    .until(() -> logs.text().contains("connecting to the Kafka cluster at " + bootstrap));
            assertThat(agent.startupProblem())
                    .get()
                    .asString()
                    .contains(bootstrap)
                    .contains("no answer yet");

            await().atMost(REQUEST_TIMEOUT).until(() -> agent.startupAttempts() >= 1);
            assertThat(Duration.ofNanos(System.nanoTime() - start))
                    .as("failed by the contact time-out")
                    .isLessThan(REQUEST_TIMEOUT);
            List<ILoggingEvent> warnings = logs.events().stream()
                    .filter(e -> e.getLevel() == Level.WARN)
                    .toList();
            assertThat(warnings)
                    .first()
                    .extracting(ILoggingEvent::getFormattedMessage)
                    .asString()
                    .startsWith(
                            "cannot reach the Kafka cluster at " + bootstrap + " (attempt 1): no answer within 2.0 s")
                    .contains("check bootstrap.servers")
                    .contains("retrying in 1.0 s");
            assertThat(agent.startupProblem()).get().asString().contains("no answer within 2.0 s");
        }
    }
}
