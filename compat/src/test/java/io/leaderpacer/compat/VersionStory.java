package io.leaderpacer.compat;

import ch.qos.logback.classic.Level;
import io.leaderpacer.agent.AgentAssembly;
import io.leaderpacer.agent.CapturedLogs;
import io.leaderpacer.agent.cli.CommandRunner;
import io.leaderpacer.agent.cli.ConfigCommand;
import io.leaderpacer.agent.cli.PlanCommand;
import io.leaderpacer.agent.config.AgentProperties;
import io.leaderpacer.agent.config.AgentPropertiesFile;
import io.leaderpacer.agent.core.AgentState;
import io.leaderpacer.agent.core.ElectionOutcome;
import io.leaderpacer.agent.core.RunRecord;
import io.leaderpacer.agent.kafka.AutoRebalanceCheck;
import io.leaderpacer.agent.kafka.ClusterReader;
import io.leaderpacer.agent.kafka.ClusterVersionCheck;
import io.leaderpacer.agent.metrics.PacerMetrics;
import io.leaderpacer.agent.reorder.OrderStateStore;
import io.leaderpacer.agent.tls.TestCertificates;
import io.leaderpacer.cluster.ProcessKafkaCluster;
import io.leaderpacer.engine.BrokerGateReport;
import io.leaderpacer.engine.ElectionDecision;
import io.leaderpacer.engine.GatePhase;
import io.leaderpacer.engine.cluster.ClusterSnapshot;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.apache.kafka.common.errors.UnsupportedVersionException;
import org.awaitility.core.ConditionTimeoutException;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The agent's core story on one running cluster, check by check, each result written to a {@link CheckTable}.
 *
 * <p>Why one class per story and not one test per check: a cluster start is most of the cost, and the checks build
 * on each other as an operator's day does (start, configure, a broker restart, a deprioritized broker, a crash of
 * the agent, its restart). Each check asserts what must hold and returns what it saw, for the table.
 */
final class VersionStory {

    static final String TOPIC = "story";
    static final int PARTITIONS = 30;
    /**
     * The replication throttle that holds broker 2 out of sync until the agent has reported it gated: far below what
     * it must fetch (see {@link #bounce()}).
     */
    static final long HOLD_BYTES_PER_SEC = 1_000;
    /** Written into broker 2's preferred partitions while it is down: minutes of fetching under the hold. */
    static final long BACKLOG_BYTES = 32_000_000;
    /** Bound on the wait for the agent to report broker 2 gated once it is unfenced (runs come every second). */
    static final Duration GATED_WAIT = Duration.ofSeconds(60);

    static final double THRESHOLD = 20;
    static final int MAX_PER_RUN = 3;
    static final long THROTTLE_MS = 1000;
    static final String LIST = "preferred.leader.deprioritized.list";

    private final String version;
    private final ProcessKafkaCluster cluster;
    private final Admin admin;
    private final ClusterMoves moves;
    private final Path dir;
    private final CheckTable table;
    /** Every run of the in-JVM agents, in order (the agent's own history keeps only the latest). */
    private final List<RunRecord> runs = new CopyOnWriteArrayList<>();

    private AgentAssembly agent;
    private PacerMetrics metrics;

    VersionStory(String version, ProcessKafkaCluster cluster, Admin admin, Path dir, CheckTable table) {
        this.version = version;
        this.cluster = cluster;
        this.admin = admin;
        this.moves = new ClusterMoves(admin, cluster.bootstrapServers());
        this.dir = dir;
        this.table = table;
    }

    /** One check: its assertions throw; what it returns is written down as what was seen. */
    @FunctionalInterface
    interface Check {
        String run() throws Exception;
    }

    /** Runs the checks in order; after a failure the rest are recorded as not run. */
    void runAll(Map<String, Check> checks) {
        boolean failed = false;
        for (Map.Entry<String, Check> c : checks.entrySet()) {
            if (failed) {
                table.notRun(c.getKey());
                continue;
            }
            try {
                table.pass(c.getKey(), c.getValue().run());
            } catch (Throwable e) {
                table.fail(c.getKey(), e);
                failed = true;
            }
        }
    }

    Map<String, Check> checks() {
        Map<String, Check> c = new LinkedHashMap<>();
        c.put("cluster from the version's jars", this::clusterLogs);
        c.put("version detected, every API probed", this::versionDetected);
        c.put("start-up checks (auto.leader.rebalance.enable), the agent over TLS", this::startupChecks);
        c.put("a PLAINTEXT client at the TLS listener: one-line error", this::plaintextAtTlsListener);
        c.put("pacer config --alter / --describe", this::dynamicConfig);
        c.put("broker bounced under a follower throttle: gated, then paced batches", this::bounce);
        c.put("metrics", this::metricsAfterBounce);
        c.put("KIP-491 reorder, kill -9 of the agent, exact restore", this::reorderKillRestore);
        c.put(
                "catch-up pacing: a restarted broker paced, every throttle config restored exactly",
                () -> new PacingStory(cluster, admin, moves, TOPIC, PARTITIONS).run());
        return c;
    }

    /** Every broker's log shows the INFO line the cluster waits for: the version's logging binding was configured. */
    String clusterLogs() throws Exception {
        moves.createTopic(TOPIC, PARTITIONS);
        for (int id : cluster.brokerIds()) {
            String log = Files.readString(cluster.logFile(id));
            assertThat(log)
                    .as("broker %d's log", id)
                    .contains("Successfully registered broker " + id + " ")
                    .doesNotContain("log4j:WARN No appenders")
                    .doesNotContain("SLF4J: No SLF4J providers")
                    .doesNotContain("SLF4J: Failed to load class");
        }
        String binding;
        try (var jars = Files.list(KafkaVersions.directory(version))) {
            List<String> names = jars.map(p -> p.getFileName().toString()).toList();
            binding = names.stream().anyMatch(n -> n.startsWith("slf4j-reload4j"))
                    ? "reload4j, log4j.properties"
                    : names.stream().anyMatch(n -> n.startsWith("log4j-slf4j")) ? "Log4j 2, log4j2.xml" : "other";
            return names.size() + " jars; logging " + binding + "; topic of " + PARTITIONS + " partitions RF 3";
        }
    }

    String versionDetected() throws Exception {
        ClusterVersionCheck check = new ClusterVersionCheck(admin, Duration.ofSeconds(30));
        ClusterVersionCheck.ClusterVersion v = check.detect();
        String release = version.substring(0, version.lastIndexOf('.'));
        assertThat(v.kraft()).isTrue();
        assertThat(v.describe()).startsWith("Kafka " + release + " (metadata.version " + release + "-IV");
        check.requireApis(v, cluster.bootstrapServers());
        return v.describe();
    }

    String startupChecks() throws Exception {
        AutoRebalanceCheck.Result r = new AutoRebalanceCheck(admin, Duration.ofSeconds(30)).check();
        assertThat(r.brokers()).containsExactly(0, 1, 2);
        assertThat(r.enabledOn()).isEmpty();
        ConfigResource clusterDefault = new ConfigResource(ConfigResource.Type.BROKER, "");
        assertThatThrownBy(() -> admin.incrementalAlterConfigs(Map.of(
                                clusterDefault,
                                List.of(new AlterConfigOp(
                                        new ConfigEntry(AutoRebalanceCheck.KEY, "true"), AlterConfigOp.OpType.SET))))
                        .all()
                        .get(30, TimeUnit.SECONDS))
                .as("Kafka must refuse to change it at run time (the refusal message points to server.properties)")
                .isInstanceOf(ExecutionException.class)
                .cause()
                .isInstanceOf(InvalidRequestException.class);
        try (CapturedLogs logs = CapturedLogs.of("io.leaderpacer.agent", Level.INFO)) {
            startAgent("in-jvm-1");
            await().atMost(Duration.ofSeconds(60)).until(() -> agent.agent().state() == AgentState.ACTIVE);
            String release = version.substring(0, version.lastIndexOf('.'));
            String connected = logs.events().stream()
                    .map(e -> e.getFormattedMessage())
                    .filter(m -> m.startsWith("connected to "))
                    .findFirst()
                    .orElseThrow();
            assertThat(connected)
                    .contains(": Kafka " + release + " (metadata.version " + release + "-IV")
                    .contains("3 brokers, auto.leader.rebalance.enable=false on all");
            assertThat(connected).startsWith("connected to " + cluster.tlsBootstrapServers());
            return "auto.leader.rebalance.enable=false on [0, 1, 2]; a dynamic change of it is refused by Kafka; the agent"
                    + " started over TLS (hostname verification on) and became the active instance (\""
                    + connected.substring(connected.indexOf(": ") + 2) + "\")";
        }
    }

    /**
     * {@code pacer plan} without any TLS setting, pointed at the TLS listener: the handshake is real, so the client
     * gets no Kafka answer, and the agent says in one line what the broker speaks.
     */
    String plaintextAtTlsListener() throws Exception {
        String bootstrap = cluster.tlsBootstrapServers();
        Path file = dir.resolve("plaintext-at-tls.properties");
        Files.writeString(file, "bootstrap.servers=" + bootstrap + "\npacer.request.timeout.ms=3000\n");
        CommandRunner.Result r = CommandRunner.run(new PlanCommand(), "--config", file.toString());
        assertThat(r.exitCode()).as(r.out()).isEqualTo(PlanCommand.EXIT_CLUSTER);
        String expected =
                "Error: cannot reach the cluster: the broker at " + bootstrap.split(",")[0] + " speaks TLS, but"
                        + " security.protocol is PLAINTEXT: set security.protocol=SSL and ssl.truststore.location (and"
                        + " ssl.truststore.password) to a trust store with the CA of its certificate (subject "
                        + TestCertificates.subject(TestCertificates.BROKER) + ")";
        assertThat(r.err().strip()).isEqualTo(expected);
        return "exit " + r.exitCode() + ", \"" + expected.substring("Error: cannot reach the cluster: ".length())
                + "\"";
    }

    String dynamicConfig() throws Exception {
        String bs = cluster.bootstrapServers();
        CommandRunner.Result alter = CommandRunner.run(
                new ConfigCommand(),
                "--bootstrap-server",
                bs,
                "--alter",
                "--add-config",
                "leader.imbalance.election.algorithm=wait-for-sync,"
                        + "leader.imbalance.election.wait.for.sync.threshold.percent=" + (int) THRESHOLD + ","
                        + "leader.imbalance.election.max.per.run=" + MAX_PER_RUN + ","
                        + "leader.imbalance.election.throttle.interval.ms=" + THROTTLE_MS);
        assertThat(alter.exitCode()).as(alter.err()).isZero();
        CommandRunner.Result describe = CommandRunner.run(new ConfigCommand(), "--bootstrap-server", bs, "--describe");
        assertThat(describe.exitCode()).as(describe.err()).isZero();
        assertThat(describe.out())
                .contains("leader.imbalance.election.algorithm=wait-for-sync  (dynamic)")
                .contains("leader.imbalance.election.max.per.run=" + MAX_PER_RUN + "  (dynamic)")
                .contains("leader.imbalance.election.throttle.interval.ms=" + THROTTLE_MS + "  (dynamic)");
        int before = runs.size();
        await().atMost(Duration.ofSeconds(30))
                .until(() -> runs.size() > before
                        && runs.get(runs.size() - 1).config().waitForSync()
                        && runs.get(runs.size() - 1).config().maxPerRun() == MAX_PER_RUN);
        table.note(unknownDynamicKey());
        return "4 keys written; --describe lists them as (dynamic); the running agent's next run used them";
    }

    /** What this version does with an unknown key in the dynamic broker config (why the agent keeps its own topic). */
    private String unknownDynamicKey() throws Exception {
        ConfigResource clusterDefault = new ConfigResource(ConfigResource.Type.BROKER, "");
        String key = "leader.imbalance.election.algorithm";
        try {
            admin.incrementalAlterConfigs(Map.of(
                            clusterDefault,
                            List.of(new AlterConfigOp(
                                    new ConfigEntry(key, "wait-for-sync"), AlterConfigOp.OpType.SET))))
                    .all()
                    .get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            return "an unknown key in the dynamic broker config is refused: "
                    + e.getCause().getMessage();
        }
        ConfigEntry seen = admin.describeConfigs(List.of(clusterDefault))
                .all()
                .get(30, TimeUnit.SECONDS)
                .get(clusterDefault)
                .get(key);
        admin.incrementalAlterConfigs(Map.of(
                        clusterDefault,
                        List.of(new AlterConfigOp(new ConfigEntry(key, null), AlterConfigOp.OpType.DELETE))))
                .all()
                .get(30, TimeUnit.SECONDS);
        return "an unknown key in the dynamic broker config is accepted and read back as "
                + (seen == null ? "absent" : "value=" + seen.value() + ", sensitive=" + seen.isSensitive());
    }

    /**
     * Broker 2 restarts behind its leaders: the agent holds it at the gate, then hands its leadership back in paced
     * batches.
     *
     * <p>The gated state is a set-up step, not a race the throttle has to win. A replication throttle of {@value
     * #HOLD_BYTES_PER_SEC} B/s is set before broker 2 stops: on the leaders (brokers 0 and 1, in force before it
     * starts again) and on broker 2 itself (applied only once its fetchers run). Kafka's quota lets a fetch through only
     * while the measured rate is under the limit, so after each response (at most {@code
     * replica.fetch.response.max.bytes}, 64 KiB here) a leader sends broker 2 nothing until that sample leaves the
     * quota window ({@code replication.quota.window.num} 2 windows of 1 s): about one such response per leader and
     * second at most, whatever the machine's speed. With {@value #BACKLOG_BYTES} bytes in broker 2's preferred partitions, bringing its ratio down
     * to the threshold takes minutes; the test waits only until a run of the agent reports broker 2 active and gated
     * (at most {@link #GATED_WAIT}), then lifts the throttle: broker 2 catches up, the gate opens, and the checks below
     * look at every run from the restart on.
     */
    String bounce() throws Exception {
        moves.setFollowerThrottle(2, HOLD_BYTES_PER_SEC, TOPIC, List.of(0, 1));
        cluster.stop(2);
        table.pass("reads while a broker is down (describeCluster fenced, ELR)", readsWhileDown());
        moves.writeBacklog(TOPIC, 2, BACKLOG_BYTES);
        long preferred = moves.preferredBy(TOPIC, 2);
        int from = runs.size();
        long startedNs = System.nanoTime();
        cluster.start(2);
        cluster.awaitUnfenced(2, Duration.ofSeconds(90));
        String atUnfenced = String.format(
                Locale.ROOT,
                "unfenced %.1f s after its start with %d of %d replicas" + " in the ISR",
                (System.nanoTime() - startedNs) / 1e9,
                moves.inSyncOn(TOPIC, 2),
                PARTITIONS);
        String plan = plan();
        await("a run of the agent with broker 2 active and gated (" + atUnfenced + ")")
                .atMost(GATED_WAIT)
                .pollInterval(Duration.ofMillis(200))
                .until(() -> List.copyOf(runs).stream().skip(from).anyMatch(VersionStory::gatesBrokerTwo));
        moves.clearFollowerThrottle(2, TOPIC, List.of(0, 1));
        List<String> isrTimeline = new ArrayList<>();
        await().atMost(Duration.ofSeconds(150))
                .pollInterval(Duration.ofMillis(500))
                .ignoreExceptions()
                .until(() -> {
                    isrTimeline.add(String.format(
                            Locale.ROOT, "%.1f:%d", (System.nanoTime() - startedNs) / 1e9, moves.inSyncOn(TOPIC, 2)));
                    return moves.ledAsPreferred(TOPIC, 2) == preferred;
                });
        List<RunRecord> seen = new ArrayList<>(runs.subList(from, runs.size()));

        int gatedRuns = 0;
        double maxGatedRatio = 0;
        List<Integer> batches = new ArrayList<>();
        for (int i = 0; i < seen.size(); i++) {
            RunRecord run = seen.get(i);
            assertThat(run.succeeded())
                    .as("run %d: %s", run.sequence(), run.failure())
                    .isTrue();
            ElectionDecision d = run.decision().orElseThrow();
            assertThat(d.elections()).as("run %d batch", run.sequence()).hasSizeLessThanOrEqualTo(MAX_PER_RUN);
            BrokerGateReport two = d.broker(2);
            if (two != null && two.active() && two.ratio().percent() > THRESHOLD) {
                assertThat(two.verdict().phase())
                        .as("run %d: broker 2 above threshold", run.sequence())
                        .isEqualTo(GatePhase.GATED);
                assertThat(run.electedTo(2))
                        .as("run %d: elections to broker 2 above threshold", run.sequence())
                        .isZero();
                gatedRuns++;
                maxGatedRatio = Math.max(maxGatedRatio, two.ratio().percent());
            }
            if (d.electionsTo(2) > 0) {
                assertThat(two.ratio().percent())
                        .as("run %d: ratio when electing", run.sequence())
                        .isLessThanOrEqualTo(THRESHOLD);
            }
            if (!run.results().isEmpty()) {
                batches.add(run.results().size());
            }
            assertThat(run.results())
                    .allSatisfy(r -> assertThat(r.outcome()).as(r.detail()).isEqualTo(ElectionOutcome.ELECTED));
            if (i > 0 && seen.get(i - 1).decision().orElseThrow().moreWork()) {
                assertThat(seen.get(i - 1).nextRunDelayMs()).isEqualTo(THROTTLE_MS);
                assertThat(run.startedAtMs() - seen.get(i - 1).startedAtMs()).isGreaterThanOrEqualTo(THROTTLE_MS);
            }
        }
        assertThat(gatedRuns)
                .as(
                        "runs with broker 2 active above the threshold (the gate was exercised; broker 2 %s;"
                                + " preferred %d; runs %s)",
                        atUnfenced,
                        preferred,
                        seen.stream()
                                        .map(r -> r.sequence() + ":"
                                                + r.decision()
                                                        .map(d -> d.broker(2) == null
                                                                ? "-"
                                                                : d.broker(2).explain() + " elected "
                                                                        + d.electionsTo(2))
                                                        .orElse("none"))
                                        .toList()
                                + " ISR " + isrTimeline)
                .isPositive();
        assertThat(batches.stream().filter(b -> b == MAX_PER_RUN).count())
                .as("capped batches")
                .isPositive();
        return String.format(
                Locale.ROOT,
                "broker 2 gated in %d runs (up to %.0f%% out of sync > %.0f%%), then"
                        + " election batches %s (cap %d, >= %d ms apart after a capped run), every election ELECTED; %s; %s",
                gatedRuns,
                maxGatedRatio,
                THRESHOLD,
                batches,
                MAX_PER_RUN,
                THROTTLE_MS,
                atUnfenced,
                plan);
    }

    /** Whether the run saw broker 2 active, above the threshold and held at the gate. */
    private static boolean gatesBrokerTwo(RunRecord run) {
        BrokerGateReport two = run.decision().map(d -> d.broker(2)).orElse(null);
        return two != null
                && two.active()
                && two.ratio().percent() > THRESHOLD
                && two.verdict().phase() == GatePhase.GATED;
    }

    /**
     * With broker 2 stopped: what {@code describeCluster} and {@code describeTopics} say, and what the agent's reader
     * makes of it. Kafka 4.0+ lists a fenced broker when asked (KIP-1073); 3.x refuses the option, and the agent
     * falls back to the unfenced brokers, so broker 2 must be inactive in the snapshot either way.
     */
    private String readsWhileDown() throws Exception {
        StringBuilder seen = new StringBuilder();
        boolean fencedListed;
        try {
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> admin
                            .describeCluster(new DescribeClusterOptions().includeFencedBrokers(true))
                            .nodes()
                            .get(10, TimeUnit.SECONDS)
                            .stream()
                            .anyMatch(n -> n.id() == 2 && n.isFenced()));
            fencedListed = true;
            seen.append("describeCluster lists broker 2 as fenced");
        } catch (ConditionTimeoutException e) {
            throw new AssertionError("broker 2 not listed as fenced within 30 s", e);
        } catch (Exception e) {
            Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
            assertThat(cause).as("describeCluster with fenced brokers").isInstanceOf(UnsupportedVersionException.class);
            fencedListed = false;
            seen.append(
                    "describeCluster cannot list fenced brokers (unsupported version), so the agent lists unfenced ones");
        }
        assertThat(fencedListed)
                .as("fenced brokers listed from Kafka 4.0 on")
                .isEqualTo(KafkaVersions.major(version) >= 4);
        ClusterSnapshot snapshot = new ClusterReader(admin, Duration.ofSeconds(30), 200).read();
        assertThat(snapshot.isActive(2))
                .as("broker 2 active in the agent's snapshot while stopped")
                .isFalse();
        seen.append("; the agent's snapshot has broker 2 ")
                .append(snapshot.isRegistered(2) ? "fenced" : "absent (not active)");
        Object elr = moves.describe(TOPIC).get(0).elr();
        Short elrLevel =
                admin
                        .describeFeatures()
                        .featureMetadata()
                        .get(30, TimeUnit.SECONDS)
                        .finalizedFeatures()
                        .entrySet()
                        .stream()
                        .filter(f -> f.getKey().equals("eligible.leader.replicas.version"))
                        .map(f -> f.getValue().maxVersionLevel())
                        .findFirst()
                        .orElse((short) 0);
        seen.append("; eligible.leader.replicas.version ")
                .append(elrLevel)
                .append(", describeTopics ELR ")
                .append(elr == null ? "absent (null)" : "a list " + elr);
        table.note(seen.toString());
        return seen.toString();
    }

    /** {@code pacer plan} right after broker 2 is back: its gate line agrees with its own ratio. */
    private String plan() throws Exception {
        Path file = dir.resolve("plan.properties");
        Properties settings = new Properties();
        settings.putAll(cluster.tlsClientProperties());
        settings.put("leader.imbalance.check.interval.seconds", "1");
        try (var out = Files.newBufferedWriter(file)) {
            settings.store(out, null);
        }
        CommandRunner.Result r = CommandRunner.run(new PlanCommand(), "--config", file.toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out())
                .contains("Plan for " + cluster.tlsBootstrapServers())
                .contains("Nothing is changed.")
                .contains("Policy: wait-for-sync, threshold " + (int) THRESHOLD + "%, max.per.run " + MAX_PER_RUN
                        + ", throttle.interval.ms " + THROTTLE_MS);
        String two = r.out()
                .lines()
                .filter(l -> l.startsWith("     2  yes"))
                .findFirst()
                .orElseThrow();
        Matcher ratio = Pattern.compile("(\\d+\\.\\d\\d)%").matcher(two);
        assertThat(ratio.find()).as(two).isTrue();
        double percent = Double.parseDouble(ratio.group(1));
        assertThat(two).contains(percent > THRESHOLD ? "gated" : "open");
        return "pacer plan (over TLS) then showed broker 2 " + (percent > THRESHOLD ? "gated" : "open") + " at "
                + ratio.group(1) + "%";
    }

    /**
     * The agent keeps running (a run a second) and its metrics listener is called before the test's own record, so a
     * scrape is compared with the runs only when no run ended around it: the record's size is the same before and after
     * the scrape and equals the scrape's run count. Any other disagreement fails the check.
     */
    String metricsAfterBounce() {
        AtomicReference<String> scraped = new AtomicReference<>();
        AtomicReference<List<RunRecord>> recorded = new AtomicReference<>();
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> {
                    List<RunRecord> before = List.copyOf(runs);
                    String text = metrics.scrape();
                    scraped.set(text);
                    recorded.set(before);
                    return runs.size() == before.size() && value(text, "LeaderPacerRuns_total") == before.size();
                });
        return metricsAgree(scraped.get(), recorded.get());
    }

    private static String metricsAgree(String text, List<RunRecord> runs) {
        long elected =
                runs.stream().mapToLong(r -> r.count(ElectionOutcome.ELECTED)).sum();
        long skipped = runs.stream()
                .mapToLong(
                        r -> r.decision().map(ElectionDecision::skippedByGate).orElse(0))
                .sum();
        assertThat(value(text, "PreferredLeaderElectionResults_total{outcome=\"elected\"}"))
                .isEqualTo(elected);
        assertThat(value(text, "PreferredLeaderElectionsSkippedByGatePerSec_total"))
                .isEqualTo(skipped)
                .isPositive();
        assertThat(value(text, "LeaderPacerRuns_total")).isEqualTo(runs.size());
        assertThat(value(text, "LeaderPacerRunFailures_total")).isZero();
        assertThat(value(text, "BrokerGated{broker=\"2\"}")).isZero();
        return "elected " + elected + ", skipped by the gate " + skipped + ", runs " + runs.size()
                + " (equal to the runs'" + " own records), no failed run, broker 2 no longer gated";
    }

    String reorderKillRestore() throws Exception {
        closeAgent();
        Map<TopicPartition, List<Integer>> originals = moves.replicaOrders();
        Map<TopicPartition, List<Integer>> expected =
                new TreeMap<>((a, b) -> a.toString().compareTo(b.toString()));
        originals.forEach((tp, order) -> {
            List<Integer> moved = new ArrayList<>(order);
            moved.remove(Integer.valueOf(0));
            moved.add(0);
            expected.put(tp, moved);
        });
        long toReorder = originals.keySet().stream()
                .filter(tp -> !originals.get(tp).equals(expected.get(tp)))
                .count();
        long pid;
        try (AgentChild child = AgentChild.start(dir, agentSettings("child"))) {
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> child.get("/status")
                            .map(s -> s.contains("\"ACTIVE\""))
                            .orElse(false));
            CommandRunner.Result alter = CommandRunner.run(
                    new ConfigCommand(),
                    "--bootstrap-server",
                    cluster.bootstrapServers(),
                    "--alter",
                    "--add-config",
                    LIST + "=[0]");
            assertThat(alter.exitCode()).as(alter.err()).isZero();
            await().atMost(Duration.ofSeconds(120))
                    .pollInterval(Duration.ofMillis(500))
                    .ignoreExceptions()
                    .until(() -> moves.replicaOrders().equals(expected) && moves.imbalanced() == 0);
            assertThat(moves.compactedContents(OrderStateStore.DEFAULT_TOPIC))
                    .as("write-ahead records")
                    .hasSize((int) toReorder)
                    .allSatisfy((k, v) -> assertThat(v).contains("\"REORDERED\""));
            assertThat(child.get("/metrics").orElseThrow()).contains("LeaderPacerRuns_total");
            assertThat(child.isAlive()).as(child.log()).isTrue();
            child.kill();
            assertThat(child.isAlive()).isFalse();
        }
        CommandRunner.Result delete = CommandRunner.run(
                new ConfigCommand(),
                "--bootstrap-server",
                cluster.bootstrapServers(),
                "--alter",
                "--delete-config",
                LIST);
        assertThat(delete.exitCode()).as(delete.err()).isZero();
        startAgent("in-jvm-2");
        await().atMost(Duration.ofSeconds(120))
                .pollInterval(Duration.ofMillis(500))
                .ignoreExceptions()
                .until(() -> moves.replicaOrders().equals(originals)
                        && moves.imbalanced() == 0
                        && moves.compactedContents(OrderStateStore.DEFAULT_TOPIC)
                                .isEmpty());
        return toReorder + " partitions reordered (broker 0 moved last) and led by their new first replica; the agent"
                + " process killed with SIGKILL; the list deleted; a new agent restored all " + toReorder
                + " original orders exactly, emptied the state topic and gave leadership back";
    }

    /** The agent as {@code pacer run} wires it, in this JVM, with metrics and a record of every run. */
    private void startAgent(String instance) {
        AgentProperties props = AgentPropertiesFile.fromMap("compat-" + version, agentSettings(instance));
        metrics = PacerMetrics.prometheusOnly();
        PacerMetrics m = metrics;
        agent = AgentAssembly.open(props, props::policy, b -> b.listener(m).listener(runs::add));
        agent.agent().start();
    }

    private Map<String, String> agentSettings(String instance) {
        // Every agent here (in this JVM and the child) talks to the TLS listener: bootstrap servers, trust store,
        // hostname verification on.
        Map<String, String> s = new LinkedHashMap<>(cluster.tlsClientProperties());
        s.put("leader.imbalance.check.interval.seconds", "1");
        s.put("pacer.session.timeout.ms", "6000");
        s.put("pacer.request.timeout.ms", "15000");
        s.put("pacer.instance.id", instance);
        s.put("pacer.http.enabled", "true");
        return s;
    }

    void closeAgent() {
        if (agent != null) {
            agent.close();
            agent = null;
        }
        if (metrics != null) {
            metrics.close();
        }
    }

    private static double value(String scrape, String series) {
        Matcher m = Pattern.compile("^" + Pattern.quote(series) + " ([0-9.eE+-]+)$", Pattern.MULTILINE)
                .matcher(scrape);
        assertThat(m.find()).as("series %s in %s", series, scrape).isTrue();
        return Double.parseDouble(m.group(1));
    }
}
