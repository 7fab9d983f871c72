package io.leaderpacer.loadtest.probe;

import io.leaderpacer.loadtest.testbed.LocalTarget;
import io.leaderpacer.report.text.ByteSize;
import org.apache.kafka.clients.admin.Admin;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code pacer throttle-probe}: measures, on a real cluster it starts itself, when a restarted broker enforces
 * Kafka's replication throttles. The field note docs/evidence/throttle-probe/THROTTLE-PROBE.md reports a run.
 */
@Command(
        name = "throttle-probe",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        defaultValueProvider = ProbeDefaults.class,
        description = {
            "Measure when a restarted Kafka broker enforces a replication throttle.",
            "Starts 1 KRaft controller and 3 brokers as separate processes on 127.0.0.1. Per case: a topic of its own,"
                    + " a throttle set one way (follower or leader side, cluster-default or per-broker rate, * or"
                    + " partition:broker lists, set while the broker is up or down, with or without a CPU cap), broker 1"
                    + " killed, a backlog written, broker 1 restarted, and its catch-up measured; removal cases then remove"
                    + " the throttle and measure the next catch-up. Writes a table (catch-up.md) and the samples"
                    + " (catch-up.csv)."
        })
public final class ThrottleProbeCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(
            names = "--cases",
            split = ",",
            paramLabel = "NAME",
            description = "Cases to run, in order (default: all; --list-cases names them).")
    List<String> cases = new ArrayList<>();

    @Option(names = "--list-cases", description = "Print the cases and exit.")
    boolean listCases;

    @Option(names = "--partitions", description = "Partitions of each case's topic (default: ${DEFAULT-VALUE}).")
    int partitions;

    @Option(
            names = "--backlog",
            paramLabel = "SIZE",
            description = "Written while the broker is down (default: ${DEFAULT-VALUE}).")
    String backlog;

    @Option(
            names = "--rate",
            paramLabel = "SIZE",
            description = "The throttled cases' rate per second (default: ${DEFAULT-VALUE}).")
    String rate;

    @Option(
            names = "--cpu-cap",
            paramLabel = "CORES",
            description = "The capped cases' CPU quota (default: ${DEFAULT-VALUE}).")
    double cpuCap;

    @Option(names = "--broker-heap", description = "Heap of each broker (default: ${DEFAULT-VALUE}).")
    String brokerHeap;

    @Option(
            names = "--broker-setting",
            paramLabel = "KEY=VALUE",
            description = {
                "A setting of every broker's server.properties (repeatable), for settings Kafka reads only at start,"
                        + " e.g. replication.quota.window.num=2."
            })
    Map<String, String> brokerSettings = new LinkedHashMap<>();

    @Option(
            names = "--out",
            paramLabel = "DIR",
            description = "Where catch-up.md and catch-up.csv go (default: ${DEFAULT-VALUE}).")
    Path out;

    @Override
    public Integer call() throws Exception {
        PrintWriter stdout = spec.commandLine().getOut();
        ProbeSettings settings;
        List<ThrottleCase> chosen;
        try {
            settings = new ProbeSettings(
                    1, partitions, ByteSize.parsePositive(backlog), ByteSize.parsePositive(rate), cpuCap);
            chosen = cases.isEmpty()
                    ? new ArrayList<>(ProbeCases.all(settings).values())
                    : ProbeCases.named(settings, cases);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        if (listCases) {
            ProbeCases.all(settings)
                    .values()
                    .forEach(c -> stdout.println(c.name() + "  "
                            + c.throttle().map(ThrottleSetup::describe).orElse("no throttle")
                            + c.cpuCap()
                                    .map(cap -> ", capped at " + cap + " core")
                                    .orElse("") + ", removal " + c.removal()
                            + (c.stepMs() > 0
                                    ? ", the rate stepping to half and back every " + c.stepMs() / 1000 + " s"
                                    : "")));
            stdout.flush();
            return 0;
        }
        Map<String, String> config = new LinkedHashMap<>(Map.of("auto.leader.rebalance.enable", "false"));
        config.putAll(brokerSettings);
        List<CatchUpResult> results;
        try (LocalTarget cluster = LocalTarget.start(3, brokerHeap, config);
                Admin admin = Admin.create(new HashMap<>(cluster.clientProperties()))) {
            stdout.println("cluster: " + cluster.description()
                    + (brokerSettings.isEmpty() ? "" : ", every broker with " + brokerSettings));
            stdout.flush();
            results = new ThrottleProbe(cluster, admin, settings, line -> {
                        stdout.println(line);
                        stdout.flush();
                    })
                    .run(chosen);
        }
        Files.createDirectories(out);
        List<String> args = new ArrayList<>(spec.commandLine().getParseResult().originalArgs());
        if (!args.isEmpty() && args.get(0).equals(spec.name())) {
            args.remove(0);
        }
        ProbeReport.write(results, settings, out, "pacer throttle-probe " + String.join(" ", args));
        stdout.println();
        stdout.print(ProbeReport.table(results));
        stdout.println("wrote " + out.resolve("catch-up.md") + " and " + out.resolve("catch-up.csv"));
        stdout.flush();
        return 0;
    }
}
