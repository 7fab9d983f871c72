package io.leaderpacer.agent.tls;

import ch.qos.logback.classic.Level;
import io.leaderpacer.agent.AgentAssembly;
import io.leaderpacer.agent.CapturedLogs;
import io.leaderpacer.agent.PacerAgent;
import io.leaderpacer.agent.RecoveryScenario;
import io.leaderpacer.agent.cli.CommandRunner;
import io.leaderpacer.agent.cli.ConfigCommand;
import io.leaderpacer.agent.cli.PlanCommand;
import io.leaderpacer.agent.config.AgentProperties;
import io.leaderpacer.agent.config.AgentPropertiesFile;
import io.leaderpacer.agent.config.SecretRedactor;
import io.leaderpacer.agent.core.AgentState;
import io.leaderpacer.agent.core.RunRecord;
import io.leaderpacer.agent.http.StatusServer;
import io.leaderpacer.agent.kafka.AgentPermissions;
import io.leaderpacer.agent.metrics.PacerMetrics;
import io.leaderpacer.embedded.EmbeddedClusterBuilder;
import io.leaderpacer.embedded.EmbeddedKafkaCluster;
import io.leaderpacer.engine.BrokerGateReport;
import io.leaderpacer.engine.ElectionDecision;
import io.leaderpacer.engine.GatePhase;
import io.leaderpacer.engine.config.PacerConfig;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The agent's core story on one real secured cluster, the same for every security mode: the start-up checks, a
 * broker bounce with a gated and then paced return, a KIP-491 reorder and its restore, {@code pacer config
 * --alter/--describe} through {@code --command-config}, and {@code pacer plan}; all through the client properties an
 * operator would write, and with no secret of them in any log line, {@code /status} or {@code /metrics}.
 *
 * <p>Why one abstract story: the three modes (TLS, SASL over TLS, mutual TLS) differ only in the cluster and the
 * client properties; each subclass starts its cluster once for the class and says what the agent's file holds.
 */
abstract class TlsClusterStory {

    static final String TOPIC = "secured-orders";
    static final int PARTITIONS = 18;
    /**
     * The leaders' replication rate to the restarted broker until the gate has been seen holding it back: so low
     * that its partitions with a backlog stay out of sync until the test lifts it. A leader throttle, set on the
     * brokers that stay up: a follower throttle on the restarted broker itself is applied from the metadata it
     * loads at start, and its first fetches sometimes run before that and take the whole backlog at once.
     */
    static final long THROTTLE_BYTES_PER_SEC = 1_000;

    static final long BACKLOG_BYTES = 1_000_000;
    /** Low: broker 2 also prefers the internal topics' partitions, which catch up at once and dilute its ratio. */
    static final double THRESHOLD = 5;

    static final int MAX_PER_RUN = 2;
    /**
     * Half the check interval: broker 2's ~25 partitions (its share of the internal topics too) come back two per
     * run, and each gap after a capped run is this interval, which the story checks as a lower bound.
     */
    static final long THROTTLE_MS = 500;

    static final Duration WAIT = Duration.ofSeconds(90);

    @TempDir
    Path dir;

    private final HttpClient http = HttpClient.newHttpClient();

    /** The running cluster of the subclass. */
    abstract EmbeddedKafkaCluster cluster();

    /** The client properties of the agent's file (bootstrap servers, security settings, identity). */
    abstract Map<String, String> agentClientProperties();

    /** Every secret value in {@link #agentClientProperties()} or the cluster's set-up that must never show. */
    abstract List<String> secrets();

    /** A cluster built for the story: small follower fetches so that the replication throttle bites at once. */
    static EmbeddedClusterBuilder storyCluster() {
        return EmbeddedKafkaCluster.builder()
                .brokers(3)
                .serverProperty("replica.fetch.max.bytes", "16384")
                .serverProperty("replica.fetch.response.max.bytes", "65536")
                .serverProperty("replication.quota.window.num", "2");
    }

    /** Creates the story's topic and, with an authorizer, grants the agent's principal exactly the documented ACLs. */
    static void prepare(EmbeddedKafkaCluster cluster, String agentPrincipal) {
        cluster.createTopic(TOPIC, PARTITIONS, 3);
        if (cluster.isSecured()) {
            cluster.accessControl()
                    .grant(AgentPermissions.REQUIRED.stream()
                            .map(p -> new AclBinding(
                                    new ResourcePattern(p.resourceType(), p.resourceName(), p.patternType()),
                                    new AccessControlEntry(
                                            agentPrincipal, "*", p.operation(), AclPermissionType.ALLOW)))
                            .toList());
        }
    }

    private Map<String, String> policy() {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("leader.imbalance.election.algorithm", "wait-for-sync");
        p.put("leader.imbalance.election.wait.for.sync.threshold.percent", Double.toString(THRESHOLD));
        p.put("leader.imbalance.election.max.per.run", Integer.toString(MAX_PER_RUN));
        p.put("leader.imbalance.election.throttle.interval.ms", Long.toString(THROTTLE_MS));
        p.put("leader.imbalance.check.interval.seconds", "1");
        return p;
    }

    private AgentProperties agentFile() {
        Map<String, String> file = new LinkedHashMap<>(agentClientProperties());
        file.putAll(policy());
        file.put("pacer.http.enabled", "false");
        file.put("pacer.request.timeout.ms", "20000");
        file.put("pacer.session.timeout.ms", "6000");
        file.put("pacer.instance.id", "tls-story");
        return AgentPropertiesFile.fromMap("agent.properties", file);
    }

    @Test
    void agent_startsGatesThenPacesARestartedBroker_reordersAndRestores_showingNoSecret() throws Exception {
        AgentProperties props = agentFile();
        PacerConfig base = props.policy();
        AtomicReference<PacerConfig> policy = new AtomicReference<>(base);
        Map<Integer, List<Integer>> original = replicaOrders();
        long preferredByTwo = RecoveryScenario.preferredBy(cluster().admin(), TOPIC, 2);
        StringBuilder shown = new StringBuilder();
        try (CapturedLogs agentLogs = CapturedLogs.of("io.leaderpacer", Level.DEBUG);
                CapturedLogs clientConfigs =
                        CapturedLogs.of("org.apache.kafka.common.config.AbstractConfig", Level.INFO);
                PacerMetrics metrics = PacerMetrics.prometheusOnly();
                AgentAssembly assembly = AgentAssembly.open(props, policy::get, b -> b.listener(metrics));
                StatusServer server = StatusServer.start(
                        "127.0.0.1", 0, assembly.agent(), metrics, props.redactedClientProperties())) {
            PacerAgent agent = assembly.agent();
            agent.start();
            // Start-up checks (ACLs, auto-rebalance off on every broker) pass over this mode's handshake.
            await().atMost(WAIT)
                    .until(() -> agent.state() == AgentState.ACTIVE
                            || agent.termination().isDone());
            assertThat(agent.state()).as("%s", agent.termination()).isEqualTo(AgentState.ACTIVE);

            // A broker bounce: gated while it catches up, then its leadership back in capped, throttled batches.
            int before = agent.history().size();
            bounceBrokerTwoBehind();
            await().atMost(WAIT)
                    .until(() -> gatedRuns(agent.history()
                                    .subList(before, agent.history().size()))
                            >= 2);
            leaderThrottle(null);
            await().atMost(WAIT)
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> RecoveryScenario.ledAsPreferred(cluster().admin(), TOPIC, 2) == preferredByTwo);
            checkGatedThenPaced(agent.history().subList(before, agent.history().size()), preferredByTwo);

            // KIP-491: broker 2 deprioritized (its partitions reordered, written ahead), then restored exactly.
            policy.set(base.with("preferred.leader.deprioritized.list", "2"));
            await().atMost(WAIT).until(() -> replicaOrders().values().stream().allMatch(r -> r.get(2) == 2));
            policy.set(base);
            await().atMost(WAIT).until(() -> replicaOrders().equals(original));
            assertThat(agent.termination()).isNotDone();

            String status = get(server, "/status");
            assertThat(status).contains("\"state\" : \"ACTIVE\"");
            shown.append(status)
                    .append(get(server, "/metrics"))
                    .append(get(server, "/healthz"))
                    .append(agentLogs.text())
                    .append(clientConfigs.text())
                    .append(props);
            agent.history()
                    .forEach(r -> shown.append(r.summary()).append(r.failure().orElse("")));
            String dumps = clientConfigs.text();
            assertThat(dumps)
                    .contains("security.protocol = " + agentClientProperties().get("security.protocol"))
                    .contains("ssl.truststore.password = [hidden]")
                    .contains("ssl.endpoint.identification.algorithm = https");
            assertThat(status).contains("\"ssl.truststore.password\" : \"" + SecretRedactor.REDACTED + "\"");
        } finally {
            leaderThrottle(null);
            RecoveryScenario.rebalance(cluster(), TOPIC);
        }
        assertNoSecret(shown.toString());
    }

    /**
     * Stops broker 2, writes a backlog, sets the leaders' replication throttle, restarts it, and checks that it came
     * back behind (some of its partitions out of their ISR). The throttle is the leaders', not the restarted broker's
     * own: a restarted broker applies its own dynamic throttle from the metadata it loads at start, and its first
     * fetches could run before that and take the whole backlog at local speed, while the leaders' throttle is in
     * force before it fetches anything.
     */
    private void bounceBrokerTwoBehind() throws Exception {
        cluster().stopBroker(2);
        // acks=all: brokers 0 and 1 both hold the backlog before the leaders' throttle is set.
        RecoveryScenario.writeBacklog(cluster(), TOPIC, PARTITIONS, BACKLOG_BYTES, "all");
        leaderThrottle(THROTTLE_BYTES_PER_SEC);
        cluster().startBroker(2);
        long behind = RecoveryScenario.describe(cluster().admin(), TOPIC).stream()
                .filter(p -> p.isr().stream().noneMatch(n -> n.id() == 2))
                .count();
        assertThat(behind)
                .as("partitions broker 2 is behind on after its restart")
                .isGreaterThanOrEqualTo(2);
    }

    /** Sets (or, with null, removes) Kafka's leader replication throttle of brokers 0 and 1 on the story's topic. */
    private void leaderThrottle(Long bytesPerSecond) {
        if (bytesPerSecond == null) {
            RecoveryScenario.clearLeaderThrottle(cluster(), List.of(0, 1), TOPIC);
        } else {
            RecoveryScenario.setLeaderThrottle(cluster(), List.of(0, 1), TOPIC, bytesPerSecond);
        }
    }

    /** Runs in which broker 2 was up, above the threshold and gated. */
    private static long gatedRuns(List<RunRecord> runs) {
        return runs.stream()
                .filter(RunRecord::succeeded)
                .map(r -> r.decision().orElseThrow().broker(2))
                .filter(two -> two != null && two.active() && two.verdict().phase() == GatePhase.GATED)
                .count();
    }

    private static void checkGatedThenPaced(List<RunRecord> runs, long preferred) {
        boolean sawGated = false;
        List<RunRecord> electing = new ArrayList<>();
        StringBuilder seen = new StringBuilder();
        for (RunRecord run : runs) {
            run.decision()
                    .map(d -> d.broker(2))
                    .ifPresent(two -> seen.append("\nrun ")
                            .append(run.sequence())
                            .append(": ")
                            .append(two.active())
                            .append(' ')
                            .append(two.partitions().outOfSync())
                            .append('/')
                            .append(two.partitions().preferredPartitions())
                            .append(' ')
                            .append(two.verdict().phase())
                            .append(", elected to 2: ")
                            .append(run.electedTo(2)));
            if (!run.succeeded()) {
                continue; // a run may fail while the bounce moves the group's coordinator; later ones must succeed
            }
            ElectionDecision d = run.decision().orElseThrow();
            BrokerGateReport two = d.broker(2);
            assertThat(d.elections()).as("run %d batch", run.sequence()).hasSizeLessThanOrEqualTo(MAX_PER_RUN);
            if (two != null && two.active() && two.ratio().percent() > THRESHOLD) {
                sawGated = true;
                assertThat(two.verdict().phase())
                        .as("run %d: broker 2 above the threshold", run.sequence())
                        .isEqualTo(GatePhase.GATED);
                assertThat(run.electedTo(2))
                        .as("run %d: elections to broker 2 above the threshold", run.sequence())
                        .isZero();
            }
            if (run.electedTo(2) > 0) {
                assertThat(two.ratio().percent())
                        .as("run %d: ratio when electing", run.sequence())
                        .isLessThanOrEqualTo(THRESHOLD);
                electing.add(run);
            }
        }
        assertThat(sawGated)
                .as("broker 2 seen active above the threshold, and gated; runs:%s", seen)
                .isTrue();
        assertThat(electing.size())
                .as("capped batches")
                .isGreaterThanOrEqualTo((int) Math.ceil(preferred * (100 - THRESHOLD) / 100 / MAX_PER_RUN) - 1);
        for (int i = 1; i < electing.size(); i++) {
            assertThat(electing.get(i).startedAtMs() - electing.get(i - 1).startedAtMs())
                    .as("gap between electing runs")
                    .isGreaterThanOrEqualTo(THROTTLE_MS);
        }
    }

    @Test
    void configCommand_altersAndDescribesThroughCommandConfig() throws Exception {
        Path commandConfig = write("command.properties", withoutBootstrap(agentClientProperties()));
        String bootstrap = agentClientProperties().get("bootstrap.servers");
        try {
            CommandRunner.Result alter = CommandRunner.run(
                    new ConfigCommand(),
                    "--bootstrap-server",
                    bootstrap,
                    "--command-config",
                    commandConfig.toString(),
                    "--alter",
                    "--add-config",
                    "leader.imbalance.election.max.per.run=7");
            assertThat(alter.exitCode()).as(alter.err()).isZero();
            assertThat(alter.out()).contains("Set leader.imbalance.election.max.per.run=7");

            CommandRunner.Result describe = CommandRunner.run(
                    new ConfigCommand(),
                    "--bootstrap-server",
                    bootstrap,
                    "--command-config",
                    commandConfig.toString(),
                    "--describe");
            assertThat(describe.exitCode()).as(describe.err()).isZero();
            assertThat(describe.out().lines().filter(l -> l.contains("leader.imbalance.election.max.per.run=7")))
                    .singleElement()
                    .asString()
                    .contains("dynamic");
            assertNoSecret(alter.out() + alter.err() + describe.out() + describe.err());
        } finally {
            CommandRunner.Result delete = CommandRunner.run(
                    new ConfigCommand(),
                    "--bootstrap-server",
                    bootstrap,
                    "--command-config",
                    commandConfig.toString(),
                    "--alter",
                    "--delete-config",
                    "leader.imbalance.election.max.per.run");
            assertThat(delete.exitCode()).as(delete.err()).isZero();
        }
    }

    @Test
    void planCommand_readsTheClusterOverThisMode() throws Exception {
        Map<String, String> file = new LinkedHashMap<>(agentClientProperties());
        file.putAll(policy());
        Path config = write("plan.properties", file);
        CommandRunner.Result plan = CommandRunner.run(new PlanCommand(), "--config", config.toString());
        assertThat(plan.exitCode()).as(plan.err()).isZero();
        assertThat(plan.out())
                .contains(agentClientProperties().get("bootstrap.servers"))
                .contains("Elections this run would make now");
        for (int broker = 0; broker < 3; broker++) {
            assertThat(plan.out()).containsPattern("(?m)^\\s+" + broker + "\\s+yes\\s");
        }
        assertNoSecret(plan.out() + plan.err());
    }

    /** Fails if any secret of this mode appears in the text. */
    void assertNoSecret(String text) {
        for (String secret : secrets()) {
            int at = text.indexOf(secret);
            assertThat(at)
                    .as(
                            "secret shown in: ...%s...",
                            at < 0 ? "" : text.substring(Math.max(0, at - 200), Math.min(text.length(), at + 50)))
                    .isEqualTo(-1);
        }
    }

    /** Writes a properties file as an operator would (multi-line PEM values escaped by {@link Properties}). */
    Path write(String name, Map<String, String> properties) throws Exception {
        Properties p = new Properties();
        p.putAll(properties);
        Path f = dir.resolve(name);
        try (OutputStream out = Files.newOutputStream(f)) {
            p.store(out, null);
        }
        return f;
    }

    static Map<String, String> withoutBootstrap(Map<String, String> client) {
        Map<String, String> out = new LinkedHashMap<>(client);
        out.remove("bootstrap.servers");
        return out;
    }

    private String get(StatusServer server, String path) throws Exception {
        return http.send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                                .build(),
                        HttpResponse.BodyHandlers.ofString())
                .body();
    }

    private Map<Integer, List<Integer>> replicaOrders() throws Exception {
        return RecoveryScenario.describe(cluster().admin(), TOPIC).stream()
                .collect(Collectors.toMap(
                        TopicPartitionInfo::partition,
                        p -> p.replicas().stream().map(Node::id).toList()));
    }
}
