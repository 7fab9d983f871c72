package io.leaderpacer.agent.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import io.leaderpacer.agent.core.SlowRead;
import io.leaderpacer.agent.http.StatusReport;
import io.leaderpacer.engine.BrokerGateReport.PartitionCounts;
import io.leaderpacer.engine.BrokerGateReport.RunCounts;
import io.leaderpacer.engine.policy.PolicyRegistry;
import io.leaderpacer.engine.policy.PresetMatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code pacer status} against an endpoint that answers as an agent's /status does. */
class StatusCommandTest {

    private HttpServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    private String serve(StatusReport report) throws Exception {
        byte[] body = new ObjectMapper().writeValueAsBytes(report);
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/status", exchange -> {
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    private static StatusReport report(String state, String startupProblem, boolean lastRunOk) {
        List<StatusReport.BrokerStatus> brokers = List.of(
                new StatusReport.BrokerStatus(
                        0,
                        true,
                        new PartitionCounts(45, 0, 0),
                        new StatusReport.GateStatus(
                                0.0, 5.0, "OPEN", "under threshold: 0/45 = 0.00% out of sync <= threshold 5%", null, 0),
                        60,
                        new RunCounts(0, 0, 0)),
                new StatusReport.BrokerStatus(
                        1,
                        true,
                        new PartitionCounts(45, 15, 9),
                        new StatusReport.GateStatus(
                                20.0,
                                5.0,
                                "GATED",
                                "gated for 30000 ms: 9/45 = 20.00% out of sync > threshold 5%",
                                "2026-01-01T00:00:00Z",
                                30000),
                        30,
                        new RunCounts(0, 15, 0)),
                new StatusReport.BrokerStatus(
                        2,
                        false,
                        new PartitionCounts(45, 45, 45),
                        new StatusReport.GateStatus(
                                100.0,
                                5.0,
                                "INACTIVE",
                                "inactive, cannot lead; the gate starts when it is back",
                                null,
                                0),
                        0,
                        new RunCounts(0, 0, 0)));
        List<StatusReport.RunSummary> runs = List.of(
                new StatusReport.RunSummary(
                        7,
                        "2026-01-01T00:05:00Z",
                        41,
                        lastRunOk,
                        lastRunOk ? null : "no answer",
                        135,
                        60,
                        0,
                        Map.of(),
                        15,
                        0,
                        1,
                        300000),
                new StatusReport.RunSummary(
                        6,
                        "2026-01-01T00:00:00Z",
                        38,
                        true,
                        null,
                        135,
                        75,
                        10,
                        Map.of("elected", 10L),
                        15,
                        0,
                        1,
                        300000));
        return new StatusReport(
                state,
                null,
                "b1:9092",
                startupProblem,
                null,
                Map.of(
                        "leader.imbalance.election.algorithm",
                        "wait-for-sync",
                        "leader.imbalance.election.wait.for.sync.threshold.percent",
                        "5"),
                Map.of("bootstrap.servers", "b1:9092"),
                brokers,
                runs,
                null,
                null);
    }

    /** The healthy agent pacing broker 2's catch-up at 20 MiB/s, 600 MB of 800 MB still to fetch. */
    static StatusReport pacing(String problem) {
        StatusReport r = report("RUNNING", null, true);
        StatusReport.PacingStatus pacing = new StatusReport.PacingStatus(
                "2026-01-01T00:05:02Z",
                problem,
                List.of(new StatusReport.PacedBroker(
                        2,
                        "PACED",
                        20L << 20,
                        "static 20.0 MiB/s",
                        new StatusReport.PacedProgress(
                                600L << 20, 800L << 20, 20.0 * (1 << 20), 30_000L, 19.8 * (1 << 20)),
                        24L << 20,
                        4L << 20)),
                List.of("broker 2's follower rate -> 20.0 MiB/s"),
                List.of(),
                false,
                false);
        Map<String, String> policy = new HashMap<>(r.policy());
        policy.put("leader.imbalance.catch.up.pacing", "static");
        return new StatusReport(
                r.state(),
                r.instance(),
                r.cluster(),
                r.startupProblem(),
                r.configurationProblem(),
                policy,
                r.client(),
                r.brokers(),
                r.runs(),
                pacing,
                null);
    }

    @Test
    void pacingAgent_showsEachRecoveringBrokersProgressBarRateAndWhy() throws Exception {
        String url = serve(pacing(null));

        CommandRunner.Result r = CommandRunner.run(new StatusCommand(), "--url", url);

        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out())
                .contains("Catch-up pacing: static, from 20.0 MiB/s.")
                .contains("  broker 2  [#####...............]  25%  20.0 MiB/s decided, 24.0 MiB/s set (4.0 MiB/s of it"
                        + " in-sync bytes Kafka counts on the same quota), 19.8 MiB/s fetched  600 MiB behind,"
                        + " 20.0 MiB/s, back in every ISR in ~30 s  static 20.0 MiB/s")
                .contains("  changed: broker 2's follower rate -> 20.0 MiB/s");
    }

    @Test
    void pacingTurnedOff_isAProblem_exitsWithProblems() throws Exception {
        String url = serve(pacing("catch-up pacing is off: the agent's principal lacks ALTER_CONFIGS on the cluster"));

        CommandRunner.Result r = CommandRunner.run(new StatusCommand(), "--url", url);

        assertThat(r.exitCode()).isEqualTo(StatusCommand.EXIT_PROBLEMS);
        assertThat(r.out())
                .contains("  - catch-up pacing is off: the agent's principal lacks ALTER_CONFIGS on the cluster");
    }

    @Test
    void runReadingSlowerThanItsInterval_isAProblem_namingTheSetting() throws Exception {
        StatusReport r = report("RUNNING", null, true);
        String url = serve(new StatusReport(
                r.state(),
                r.instance(),
                r.cluster(),
                r.startupProblem(),
                r.configurationProblem(),
                r.policy(),
                r.client(),
                r.brokers(),
                r.runs(),
                null,
                new SlowRead(7, 17_300, 15_000, "leader.imbalance.election.wait.for.sync.recheck.interval.ms")));

        CommandRunner.Result c = CommandRunner.run(new StatusCommand(), "--url", url);

        assertThat(c.exitCode()).isEqualTo(StatusCommand.EXIT_PROBLEMS);
        assertThat(c.out())
                .contains(
                        "  - run 7 read the cluster in 17.3 s, longer than the 15.0 s interval it serves,"
                                + " so every run comes a read late; raise leader.imbalance.election.wait.for.sync.recheck.interval.ms");
    }

    @Test
    void healthyAgent_printsTheGateTableAndLastRuns_exitsZero() throws Exception {
        String url = serve(report("RUNNING", null, true));

        CommandRunner.Result r = CommandRunner.run(new StatusCommand(), "--url", url);

        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out())
                .contains("Leader Pacer at " + url + ": RUNNING, cluster b1:9092")
                .contains("Problems: none.")
                .contains("Policy: wait-for-sync, threshold 5%");
        assertThat(r.out().lines().filter(l -> l.startsWith("     1  yes")))
                .singleElement()
                .asString()
                .contains("gated")
                .contains("20.00%");
        assertThat(r.out().lines().filter(l -> l.startsWith("     2  no")))
                .singleElement()
                .asString()
                .contains("inactive");
        assertThat(r.out())
                .contains("run 7 at 2026-01-01T00:05:00Z")
                .contains("run 6 at")
                .contains("10 elected");
    }

    @Test
    void agentRunningAPreset_saysWhichOne_underThePolicyLine() throws Exception {
        StatusReport r = report("RUNNING", null, true);
        Map<String, String> policy =
                PresetMatch.configOf(PolicyRegistry.named("recommended-paced")).toMap();
        String url = serve(new StatusReport(
                r.state(),
                r.instance(),
                r.cluster(),
                r.startupProblem(),
                r.configurationProblem(),
                policy,
                r.client(),
                r.brokers(),
                r.runs(),
                null,
                null));

        CommandRunner.Result c = CommandRunner.run(new StatusCommand(), "--url", url);

        List<String> lines = c.out().lines().toList();
        int policyLine = lines.indexOf(
                lines.stream().filter(l -> l.startsWith("Policy: ")).findFirst().orElseThrow());
        assertThat(lines.get(policyLine + 1)).isEqualTo("Keys in force: preset recommended-paced");
    }

    @Test
    void agentRunningNoPreset_namesTheNearestAndTheKeysThatDiffer() throws Exception {
        String url = serve(report("RUNNING", null, true));

        CommandRunner.Result c = CommandRunner.run(new StatusCommand(), "--url", url);

        // wait-for-sync at 5 % is two keys from immediate and two from kip-example: the first in the registry wins.
        assertThat(c.out().lines())
                .contains(
                        "Keys in force match no preset (differs from immediate in:"
                                + " leader.imbalance.election.algorithm, leader.imbalance.election.wait.for.sync.threshold.percent)");
    }

    @Test
    void agentOfAnotherVersion_withAKeyUnknownHere_getsNoPresetLine() {
        assertThat(StatusText.presetLine(Map.of("leader.imbalance.election.future.key", "1")))
                .isEmpty();
        assertThat(StatusText.presetLine(Map.of())).contains("Keys in force: preset immediate");
    }

    @Test
    void agentWithProblems_listsThem_exitsOne() throws Exception {
        String url = serve(
                report("STARTING", "connecting to the Kafka cluster at b1:9092: no answer yet (attempt 1)", false));

        CommandRunner.Result r = CommandRunner.run(new StatusCommand(), "--url", url);

        assertThat(r.exitCode()).isEqualTo(StatusCommand.EXIT_PROBLEMS);
        assertThat(r.out())
                .contains("Problems:")
                .contains("  - start-up: connecting to the Kafka cluster at b1:9092")
                .contains("  - the last run failed: no answer");
    }

    @Test
    void noAgentThere_saysWhereItLooked_exitsThree() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        CommandRunner.Result r = CommandRunner.run(new StatusCommand(), "--url", "http://127.0.0.1:" + port);

        assertThat(r.exitCode()).isEqualTo(StatusCommand.EXIT_UNREACHABLE);
        assertThat(r.err())
                .startsWith(
                        "Error: cannot reach the agent at http://127.0.0.1:" + port + "/status: connection refused;")
                .doesNotContain("Exception")
                .doesNotContain("within");
    }

    @Test
    void bootstrapServerNobodyAnswers_saysSoWithinTheTimeOut_exitsThree() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        CommandRunner.Result r = CommandRunner.run(
                new StatusCommand(), "--bootstrap-server", "127.0.0.1:" + port, "--timeout-ms", "2000");

        assertThat(r.exitCode()).isEqualTo(StatusCommand.EXIT_UNREACHABLE);
        assertThat(r.err())
                .startsWith("Error: no answer from the Kafka cluster at 127.0.0.1:" + port + " within 2000 ms");
    }
}
