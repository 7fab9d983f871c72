package io.leaderpacer.loadtest;

import io.leaderpacer.loadtest.result.LoadTestResult;
import io.leaderpacer.loadtest.result.Reports;
import io.leaderpacer.loadtest.result.RollingReport;
import io.leaderpacer.loadtest.result.RollingResult;
import io.leaderpacer.loadtest.steady.WarmUpSettings;
import io.leaderpacer.loadtest.testbed.ExternalTarget;
import io.leaderpacer.loadtest.testbed.LocalTarget;
import io.leaderpacer.loadtest.testbed.Saturation;
import io.leaderpacer.loadtest.testbed.ShutdownMode;
import io.leaderpacer.loadtest.testbed.TargetCluster;
import io.leaderpacer.report.MeasurementWindow;
import io.leaderpacer.report.text.ByteSize;
import io.leaderpacer.report.text.DurationText;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;

/**
 * {@code pacer loadtest}: the proposal's system test on a real Kafka cluster, by default one it starts itself as
 * separate processes, with the restarted broker saturated on its own where the OS allows it.
 */
@Command(
        name = "loadtest",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        defaultValueProvider = LoadTestDefaults.class,
        description = {
            "Measure, on a real Kafka cluster, what producers feel while a restarted broker recovers,"
                    + " under each policy.",
            "Starts 1 KRaft controller and N brokers as separate processes on 127.0.0.1 (or uses"
                    + " --bootstrap-server), restarts one broker per round under steady acks=all load, and reports"
                    + " P99 per class, time-outs and recovery time as a table, CSV files and an HTML report."
        })
public final class LoadTestCommand implements Callable<Integer> {

    static final int BAD_INPUT = 2;

    @Spec
    CommandSpec spec;

    @Option(names = "--brokers", description = "Brokers of the test's own cluster (default: ${DEFAULT-VALUE}).")
    int brokers;

    @Option(
            names = "--restart-broker",
            paramLabel = "ID",
            description = "The broker to restart (default: ${DEFAULT-VALUE}).")
    int restartBroker;

    @Option(names = "--partitions", description = "Partitions of the load topic (default: ${DEFAULT-VALUE}).")
    int partitions;

    @Option(
            names = "--catch-up-partitions",
            description = "Partitions of the catch-up topic that takes the backlog (default: ${DEFAULT-VALUE}).")
    int catchUpPartitions;

    @Option(names = "--rate", paramLabel = "RECORDS/S", description = "Steady load (default: ${DEFAULT-VALUE}).")
    int rate;

    @Option(
            names = "--record-size",
            paramLabel = "BYTES",
            description = "Steady load record size (default: ${DEFAULT-VALUE}).")
    int recordSize;

    @Option(
            names = "--backlog",
            paramLabel = "SIZE",
            description = "Data written while the broker is down (default: ${DEFAULT-VALUE}): " + ByteSize.HELP + ".")
    String backlog;

    @Option(
            names = "--backlog-skew",
            paramLabel = "SIGMA",
            description = "Log-normal spread of the backlog over partitions (default: ${DEFAULT-VALUE}).")
    double backlogSkew;

    @Option(
            names = "--seed",
            paramLabel = "N",
            description = "Seed of the backlog's spread (default: random, printed).")
    Long seed;

    @Option(
            names = "--shutdown",
            paramLabel = "kill|controlled",
            description = "How the broker is stopped (default: ${DEFAULT-VALUE}).")
    ShutdownMode shutdown;

    @Option(
            names = "--down-for",
            paramLabel = "DURATION",
            description =
                    "The least time from the broker's stop to its start (default: ${DEFAULT-VALUE}: start once the"
                            + " backlog is written). Whether it comes back within its leaders' replica.lag.time.max.ms (30 s by"
                            + " default) decides its first seconds: set it to compare runs on the same side of it.")
    String downFor;

    @Option(
            names = "--warmup",
            paramLabel = "DURATION",
            description = "Load before the first round, thrown away: at least this long, then until"
                    + " the P99s of the last 3 windows of 5 s are within 2x of each other (default: ${DEFAULT-VALUE}).")
    String warmup;

    @Option(
            names = "--warmup-limit",
            paramLabel = "DURATION",
            description = "The longest warm-up; the run then goes on and its findings say so"
                    + " (default: ${DEFAULT-VALUE}).")
    String warmupLimit;

    @Option(
            names = "--steady",
            paramLabel = "DURATION",
            description = "Each round's steady phase, the reference P99 (default: ${DEFAULT-VALUE}).")
    String steady;

    @Option(
            names = "--window",
            paramLabel = "DURATION",
            description =
                    "Window after unfencing over which P99 is measured, at least (default: ${DEFAULT-VALUE}; KIP-1358's is 10m);"
                            + " it stays open until " + MeasurementWindow.RELEASE_TAIL_MS / 1000
                            + " s after the broker leads again, so that the"
                            + " return of leadership is always in it.")
    String window;

    @Option(
            names = "--kip-window",
            description = "Also measure KIP-1358's window, the ten minutes from unfencing, against KIP-1358's reference"
                    + " (the P99 of every steady-phase send of the run, pooled): each round then lasts at least ten"
                    + " minutes after unfencing (--round-limit must be at least 10m). The --window figures stay beside"
                    + " them.")
    boolean kipWindow;

    @Option(
            names = "--round-limit",
            paramLabel = "DURATION",
            description = "Stop measuring a round this long after unfencing (default: ${DEFAULT-VALUE}, long"
                    + " enough for a paced recovery).")
    String roundLimit;

    @Option(names = "--rounds", description = "Rounds per policy, alternating (default: ${DEFAULT-VALUE}).")
    int rounds;

    @Option(
            names = "--rolling",
            description = "Make each round a rolling restart: every broker stopped and started again in turn, the next"
                    + " once the previous leads again and every replica is in sync, as operators' scripts wait. Reports"
                    + " the producers' P99 across the whole restart, time-outs and the time until the last broker"
                    + " leads again, per round (rolling.csv, summary.md; pacing and CPU per turn: rolling-pacing.csv,"
                    + " rolling-threads.csv).")
    boolean rolling;

    @Option(
            names = "--policy",
            paramLabel = "NAME[:key=value,...]",
            description = "A policy to compare (repeatable; default: immediate and recommended-paced; pacer simulate"
                    + " --list-policies lists every name). A key broker.KEY is a Kafka broker setting its rounds run under, set as"
                    + " a cluster-wide dynamic default and put back after each round (e.g. broker.num.replica.fetchers=2);"
                    + " end with ' as LABEL' to name it in the reports.")
    List<String> policies = new ArrayList<>();

    @Option(
            names = "--check-interval",
            paramLabel = "SECONDS",
            description = "The agent's check interval for every policy (default: ${DEFAULT-VALUE}).")
    long checkInterval;

    @Option(
            names = "--cpu-cap",
            paramLabel = "CORES",
            description = "CPU quota of the restarted broker (default: ${DEFAULT-VALUE}).")
    double cpuCap;

    @Option(
            names = "--no-saturation",
            description = "Do not cap the restarted broker (the run then cannot show the effect).")
    boolean noSaturation;

    @Option(
            names = "--cap-spares-compiler",
            description = "Take the restarted broker's JIT compiler threads out of its CPU cap, each second as they"
                    + " appear (cgroup v1): its own work capped, its compiler not, as on a production broker whose"
                    + " catch-up saturates its disks and network while its compiler has cores of its own.")
    boolean capSparesCompiler;

    @Option(
            names = "--cpu-cap-period",
            paramLabel = "DURATION",
            description = "The CFS period of the restarted broker's CPU quota (default: the kernel's 100ms; cgroup"
                    + " only): the same share of a core over other periods. The kernel hands a group's runtime to"
                    + " each CPU in slices (sched_cfs_bandwidth_slice_us, usually 5ms), and a period whose quota is"
                    + " near one slice may stop the broker more, not less: 10ms at half a core did (evidence run 40).")
    String cpuCapPeriod;

    @Option(
            names = "--catch-up-topic",
            paramLabel = "NAME",
            description =
                    "Name of the topic that takes the backlog (default: ${DEFAULT-VALUE}). The agent elects in topic-name order:"
                            + " a name after " + LoadTestSettings.LOAD_TOPIC
                            + " (e.g. pacer-loadtest-z-catchup) returns the partitions with producers first in a capped ramp, the default last.")
    String catchUpTopic;

    @Option(names = "--broker-heap", description = "Heap of each broker (default: ${DEFAULT-VALUE}).")
    String brokerHeap;

    @Option(
            names = "--broker-setting",
            paramLabel = "KEY=VALUE",
            description = "A setting of every broker's server.properties of the test's own cluster, for the whole run"
                    + " (repeatable): for settings Kafka reads only at start, e.g. replication.quota.window.num=2."
                    + " A dynamic one per policy is a policy's broker.KEY.")
    Map<String, String> brokerSettings = new LinkedHashMap<>();

    @Option(
            names = "--bootstrap-server",
            paramLabel = "HOST:PORT",
            description = "Run against an existing cluster instead of starting one.")
    String bootstrapServer;

    @Option(
            names = "--command-config",
            paramLabel = "FILE",
            description = "Client properties (security) for --bootstrap-server.")
    Path commandConfig;

    @Option(
            names = "--restart-command",
            paramLabel = "COMMAND",
            description = "With --bootstrap-server: shell command that stops or starts a broker;"
                    + " {action} is stop or start, {broker} the id, {mode} kill or controlled.")
    String restartCommand;

    @Option(
            names = "--out",
            paramLabel = "DIR",
            description = "Where the CSV files and report.html go (default: ${DEFAULT-VALUE}).")
    Path out;

    public static void main(String[] args) {
        System.exit(new CommandLine(new LoadTestCommand()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        PrintWriter stdout = spec.commandLine().getOut();
        LoadTestSettings settings;
        Supplier<TargetCluster> target;
        Saturation saturation;
        try {
            settings = settings();
            target = target(settings);
            saturation = bootstrapServer != null
                    ? Saturation.none("an existing cluster: its brokers' processes are not ours to cap")
                    : noSaturation ? Saturation.none("--no-saturation") : Saturation.of(cpuCap);
            if (capSparesCompiler) {
                saturation = saturation.sparingCompiler();
            }
            if (cpuCapPeriod != null) {
                saturation = saturation.withPeriod(duration("--cpu-cap-period", cpuCapPeriod));
            }
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        String cluster = bootstrapServer != null
                ? "the cluster at " + bootstrapServer
                : "a Kafka cluster of 1 controller and " + brokers + " brokers as separate processes";
        String command = commandLine(settings);
        LoadTest test = new LoadTest(settings, target, saturation, line -> {
            stdout.println(line);
            stdout.flush();
        });
        if (settings.comparison().rolling()) {
            List<RollingResult> results = test.runRolling(
                    cluster, soFar -> RollingReport.write(soFar, NamedPolicy.BASELINE, settings.out(), command));
            RollingReport.print(results, NamedPolicy.BASELINE, stdout);
            stdout.println();
            stdout.println(
                    "wrote rolling.csv, rolling-pacing.csv, rolling-threads.csv and summary.md in " + settings.out());
            stdout.flush();
            return 0;
        }
        LoadTestResult result = test.afterEachRound(soFar -> Reports.write(soFar, settings.out(), command))
                .run(cluster);
        report(result, settings, stdout, command);
        return 0;
    }

    private LoadTestSettings settings() {
        List<String> specs = policies.isEmpty() ? NamedPolicy.DEFAULTS : policies;
        int preferred = LoadTestSettings.estimatedPreferred(brokers, partitions, catchUpPartitions);
        List<NamedPolicy> named = new ArrayList<>();
        for (String s : specs) {
            named.add(NamedPolicy.parse(s, preferred, checkInterval));
        }
        long backlogSeed = seed != null ? seed : ThreadLocalRandom.current().nextLong(1, 1_000_000);
        try {
            return LoadTestSettings.builder()
                    .brokers(brokers)
                    .restartedBroker(restartBroker)
                    .brokerHeap(brokerHeap)
                    .serverSettings(brokerSettings)
                    .saturation(!noSaturation && bootstrapServer == null, cpuCap)
                    .partitions(partitions, catchUpPartitions)
                    .catchUpTopic(catchUpTopic)
                    .load(rate, recordSize)
                    .backlog(ByteSize.parsePositive(backlog), backlogSkew, backlogSeed)
                    .shutdown(shutdown)
                    .downFor(duration("--down-for", downFor))
                    .warmup(new WarmUpSettings(duration("--warmup", warmup), duration("--warmup-limit", warmupLimit)))
                    .steady(duration("--steady", steady))
                    .window(duration("--window", window))
                    .kipWindow(kipWindow)
                    .roundLimit(duration("--round-limit", roundLimit))
                    .policies(named)
                    .rounds(rounds)
                    .rolling(rolling)
                    .checkIntervalSeconds(checkInterval)
                    .out(out)
                    .build();
        } catch (SettingException e) {
            // a setting's error reads as the option the user typed: the setting names it (LoadTestDefaults.Setting)
            throw new IllegalArgumentException(e.option() + " " + e.rest(), e);
        }
    }

    private static Duration duration(String option, String text) {
        try {
            return Duration.ofMillis(DurationText.parseMs(text));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(option + ": " + e.getMessage(), e);
        }
    }

    private Supplier<TargetCluster> target(LoadTestSettings settings) {
        if (bootstrapServer == null) {
            if (restartCommand != null || commandConfig != null) {
                throw new IllegalArgumentException("--restart-command and --command-config need --bootstrap-server");
            }
            Map<String, String> config = new LinkedHashMap<>(Map.of("auto.leader.rebalance.enable", "false"));
            config.putAll(settings.cluster().serverSettings());
            return () -> LocalTarget.start(
                    settings.cluster().brokers(), settings.cluster().brokerHeap(), config);
        }
        if (restartCommand == null) {
            throw new IllegalArgumentException(
                    "--bootstrap-server needs --restart-command: the test must restart a broker");
        }
        if (!brokerSettings.isEmpty()) {
            throw new IllegalArgumentException("--broker-setting needs the test's own cluster: it cannot write the"
                    + " server.properties of the brokers at --bootstrap-server");
        }
        Map<String, Object> client = new HashMap<>();
        if (commandConfig != null) {
            Properties p = new Properties();
            try (InputStream in = Files.newInputStream(commandConfig)) {
                p.load(in);
            } catch (IOException e) {
                throw new IllegalArgumentException(
                        "--command-config " + commandConfig + ": cannot read it (" + e.getMessage() + ")", e);
            }
            p.forEach((k, v) -> client.put((String) k, v));
        }
        client.put("bootstrap.servers", bootstrapServer);
        return () -> ExternalTarget.connect(client, restartCommand);
    }

    /** The command as typed, with the seed it drew when none was given: what reproduces the run. */
    private String commandLine(LoadTestSettings settings) {
        List<String> args = new ArrayList<>(spec.commandLine().getParseResult().originalArgs());
        if (!args.isEmpty() && args.get(0).equals(spec.name())) {
            args.remove(0);
        }
        return "pacer loadtest " + String.join(" ", args)
                + (seed == null ? " --seed " + settings.backlog().seed() : "");
    }

    /** Prints the tables and writes the reports (the same files the rounds wrote as they went, now complete). */
    private void report(LoadTestResult result, LoadTestSettings settings, PrintWriter stdout, String command)
            throws IOException {
        Reports.print(result, stdout);
        Path html = Reports.write(result, settings.out(), command);
        stdout.println();
        stdout.println("wrote " + html + ", summary.md and the CSV files in " + settings.out());
        stdout.flush();
    }
}
