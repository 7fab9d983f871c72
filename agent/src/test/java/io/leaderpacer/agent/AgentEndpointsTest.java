package io.leaderpacer.agent;

import ch.qos.logback.classic.Level;
import io.leaderpacer.agent.cli.CommandRunner;
import io.leaderpacer.agent.cli.PlanCommand;
import io.leaderpacer.agent.cli.RunCommand;
import io.leaderpacer.agent.cli.RunCommandAccess;
import io.leaderpacer.agent.cli.StatusCommand;
import io.leaderpacer.agent.config.AgentProperties;
import io.leaderpacer.agent.config.AgentPropertiesFile;
import io.leaderpacer.agent.config.SecretRedactor;
import io.leaderpacer.agent.http.StatusServer;
import io.leaderpacer.agent.metrics.PacerMetrics;
import io.leaderpacer.embedded.EmbeddedKafkaCluster;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The agent as an operator meets it, on a real single-broker cluster: its HTTP endpoint while running, the
 * guarantee that no secret from the client properties ever shows, and the {@code run} / {@code plan} commands.
 */
@Tag("cluster")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class AgentEndpointsTest {

    private static final List<String> SECRETS =
            List.of("TrustPass-4242", "JaasPass-9898", "BasicPass-7777", "Sec-1313");

    private static EmbeddedKafkaCluster cluster;
    private final HttpClient http = HttpClient.newHttpClient();

    @TempDir
    Path dir;

    @BeforeAll
    static void startCluster() {
        cluster = EmbeddedKafkaCluster.builder().brokers(1).build().start();
        cluster.createTopic("events", 6, 1);
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void secretsNeverAppearInStatusMetricsHealthOrLogs() throws Exception {
        Map<String, String> file = new LinkedHashMap<>();
        file.put("bootstrap.servers", cluster.bootstrapServers());
        file.put("security.protocol", "PLAINTEXT");
        file.put("ssl.truststore.password", "TrustPass-4242");
        file.put(
                "sasl.jaas.config",
                "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"u\" password=\"JaasPass-9898\";");
        file.put("basic.auth.user.info", "user:BasicPass-7777");
        file.put("my.client.secret", "Sec-1313");
        file.put("leader.imbalance.check.interval.seconds", "1");
        AgentProperties props = AgentPropertiesFile.fromMap("test.properties", file);
        AtomicInteger calls = new AtomicInteger();
        StringBuilder seen = new StringBuilder();
        try (CapturedLogs agentLogs = CapturedLogs.of("io.leaderpacer", Level.DEBUG);
                CapturedLogs kafkaLogs = CapturedLogs.of("org.apache.kafka.clients.admin", Level.INFO);
                Admin admin = Admin.create(props.adminClientConfig());
                PacerMetrics metrics = PacerMetrics.prometheusOnly();
                PacerAgent agent = PacerAgent.builder(admin)
                        .properties(props)
                        // Faults whose messages carry secrets, as a careless library's might.
                        .configSource(() -> {
                            if (calls.incrementAndGet() == 1) {
                                throw new IllegalStateException("config store rejected JaasPass-9898");
                            }
                            return Map.of();
                        })
                        .replicaOrderStep((snapshot, config) -> {
                            if (calls.get() <= 2) {
                                throw new IllegalStateException(
                                        "reorder failed for user:BasicPass-7777 with TrustPass-4242");
                            }
                            return snapshot;
                        })
                        .listener(metrics)
                        .build();
                StatusServer server =
                        StatusServer.start("127.0.0.1", 0, agent, metrics, props.redactedClientProperties())) {
            agent.runOnce();
            agent.runOnce();
            agent.start();
            await().atMost(Duration.ofSeconds(60))
                    .until(() ->
                            agent.history().size() >= 3 && agent.lastRun().get().succeeded());
            String status = get(server, "/status").body();
            seen.append(status)
                    .append(get(server, "/metrics").body())
                    .append(get(server, "/healthz").body())
                    .append(agentLogs.text())
                    .append(kafkaLogs.text())
                    .append(props);
            agent.history()
                    .forEach(r -> seen.append(r.summary()).append(r.failure().orElse("")));
            assertThat(status)
                    .contains("\"ssl.truststore.password\" : \"" + SecretRedactor.REDACTED + "\"")
                    .contains("\"succeeded\" : false")
                    .contains("reorder failed for");
            assertThat(agentLogs.text())
                    .contains("keeping the previous configuration")
                    .contains("reorder failed for");
            assertThat(get(server, "/healthz").statusCode()).isEqualTo(200);
        }
        for (String secret : SECRETS) {
            int at = seen.indexOf(secret);
            assertThat(at)
                    .as(
                            "secret %s shown in: ...%s...",
                            secret,
                            at < 0 ? "" : seen.substring(Math.max(0, at - 300), Math.min(seen.length(), at + 100)))
                    .isEqualTo(-1);
        }
    }

    @Test
    void runCommand_runsTheAgentUntilStopped() throws Exception {
        Path f = dir.resolve("agent.properties");
        Files.writeString(
                f,
                "bootstrap.servers=" + cluster.bootstrapServers() + "\n"
                        + "leader.imbalance.check.interval.seconds=1\npacer.http.enabled=false\n");
        RunCommandAccess command = new RunCommandAccess();
        try (CapturedLogs logs = CapturedLogs.of(PacerAgent.class.getName(), Level.DEBUG)) {
            Thread runner = new Thread(() -> command.runWith("--config", f.toString()), "run-command");
            runner.start();
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> logs.messagesOf("PacerAgent").stream().anyMatch(m -> m.startsWith("run 2:")));
            command.stop();
            runner.join(30_000);
            assertThat(runner.isAlive()).isFalse();
        }
        assertThat(command.result().exitCode()).isZero();
    }

    @Test
    void statusCommand_findsTheActiveInstanceThroughTheCluster_andShowsItsGateTable() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Path f = dir.resolve("status.properties");
        Files.writeString(
                f,
                "bootstrap.servers=" + cluster.bootstrapServers() + "\n"
                        + "leader.imbalance.check.interval.seconds=1\npacer.http.port=" + port
                        + "\npacer.instance.id=status-test\n");
        RunCommandAccess command = new RunCommandAccess();
        try (CapturedLogs logs = CapturedLogs.of(PacerAgent.class.getName(), Level.DEBUG)) {
            Thread runner = new Thread(() -> command.runWith("--config", f.toString()), "run-command");
            runner.start();
            try {
                await().atMost(Duration.ofSeconds(60))
                        .until(() -> logs.messagesOf("PacerAgent").stream().anyMatch(m -> m.startsWith("run 2:")));

                CommandRunner.Result r = CommandRunner.run(
                        new StatusCommand(),
                        "--bootstrap-server",
                        cluster.bootstrapServers(),
                        "--http-port",
                        Integer.toString(port));

                assertThat(r.exitCode()).as(r.out() + r.err()).isZero();
                assertThat(r.out())
                        .contains(": ACTIVE, cluster " + cluster.bootstrapServers())
                        .contains("Instance status-test of group leader-pacer: ACTIVE")
                        .contains("Problems: none.")
                        .contains("Gate at the last successful run:")
                        .contains("Last runs, newest first:");
                assertThat(r.out().lines().filter(l -> l.startsWith("     0  yes")))
                        .hasSize(1);
            } finally {
                command.stop();
                runner.join(30_000);
            }
        }
    }

    @Test
    void runCommand_invalidFile_exitsWithUsageStatusAndOneLine() throws Exception {
        Path f = dir.resolve("bad.properties");
        Files.writeString(
                f, "bootstrap.servers=" + cluster.bootstrapServers() + "\nleader.imbalance.election.max.per.run=0\n");
        CommandRunner.Result r = CommandRunner.run(new RunCommand(), "--config", f.toString());
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err().strip())
                .startsWith("Error: " + f)
                .contains("'0'")
                .contains("leader.imbalance.election.max.per.run")
                .doesNotContain("\n");
    }

    @Test
    void planCommand_onARealCluster_printsTheGateReportAndChangesNothing() throws Exception {
        Path f = dir.resolve("plan.properties");
        Files.writeString(
                f,
                "bootstrap.servers=" + cluster.bootstrapServers() + "\n"
                        + "leader.imbalance.election.algorithm=wait-for-sync\n");
        Map<String, Integer> topicsBefore =
                Map.of("count", cluster.admin().listTopics().names().get().size());
        CommandRunner.Result r = CommandRunner.run(new PlanCommand(), "--config", f.toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out())
                .contains("Plan for " + cluster.bootstrapServers())
                .contains("Policy: wait-for-sync")
                .contains("Elections this run would make now: none.");
        assertThat(r.out().lines().filter(l -> l.startsWith("     0  yes")).findFirst())
                .get()
                .asString()
                .contains("open");
        assertThat(cluster.admin().listTopics().names().get()).hasSize(topicsBefore.get("count"));
        // Kafka's default fetch sizes on every broker: the plan advises smaller ones, with the values each reported.
        assertThat(r.out().lines())
                .contains("  broker 0: replica.fetch.response.max.bytes=10485760," + " replica.fetch.max.bytes=1048576")
                .anyMatch(l -> l.startsWith(
                        "  advised: replica.fetch.response" + ".max.bytes=1048576 and replica.fetch.max.bytes=262144"));
    }

    private HttpResponse<String> get(StatusServer server, String path) throws Exception {
        return http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
