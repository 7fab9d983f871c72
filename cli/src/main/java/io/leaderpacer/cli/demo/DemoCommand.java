package io.leaderpacer.cli.demo;

import io.leaderpacer.loadtest.LoadTest;
import io.leaderpacer.loadtest.LoadTestDefaults;
import io.leaderpacer.loadtest.LoadTestDefaults.Setting;
import io.leaderpacer.loadtest.LoadTestSettings;
import io.leaderpacer.loadtest.NamedPolicy;
import io.leaderpacer.loadtest.result.LoadTestResult;
import io.leaderpacer.loadtest.result.Reports;
import io.leaderpacer.loadtest.steady.WarmUpSettings;
import io.leaderpacer.loadtest.testbed.LocalTarget;
import io.leaderpacer.loadtest.testbed.Saturation;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code pacer demo}: one short round per policy of {@code pacer loadtest}, on a real Kafka cluster of separate
 * processes that it starts and removes itself; nothing to install.
 */
@Command(
        name = "demo",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Restart a broker of a real Kafka cluster and watch the agent pace its leadership back.",
            "",
            "A short pacer loadtest: starts a KRaft controller and 3 brokers as separate processes on 127.0.0.1"
                    + " (Kafka's own jars, nothing to install), warms up, then restarts broker 1 once under immediate"
                    + " (Kafka's behaviour today) and once under recommended-paced (KIP-1358's gate with the broker's"
                    + " catch-up paced by a follower throttle, producers first), with steady acks=all load and a backlog"
                    + " to catch up on. Where the OS allows it, broker 1's process is CPU-capped so that its catch-up"
                    + " saturates it alone, and producer P99 is compared per class; otherwise the demo shows the"
                    + " mechanism only (gate, batches, recovery).",
            "",
            "Takes about 7 minutes (--quick: about 5). Ctrl-C stops the cluster cleanly.",
            ""
        })
public final class DemoCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Option(names = "--quick", description = "Less data to catch up on: a shorter run with the same shape.")
    private boolean quick;

    @Option(
            names = "--out",
            paramLabel = "DIR",
            defaultValue = "target/pacer-demo",
            description = "Where to write report.html and the CSV files (default: ${DEFAULT-VALUE}).")
    private Path out;

    /**
     * The demo's settings: a small load test, the same shape at both sizes, one round per policy. What it sets here
     * differs from {@code pacer loadtest}'s defaults on purpose (fewer partitions, smaller records and backlog, a
     * shorter warm-up, window and round, a faster agent); the rest, and the values it passes on unchanged (rate, skew,
     * CPU cap, steady phase of the full run), are the load test's ({@link LoadTestDefaults}).
     */
    static LoadTestSettings settings(boolean quick, Path out) {
        int loadPartitions = 30;
        int catchUpPartitions = 120;
        int preferred = LoadTestSettings.estimatedPreferred(Setting.BROKERS.asInt(), loadPartitions, catchUpPartitions);
        long checkInterval = 2;
        return LoadTestSettings.builder()
                .partitions(loadPartitions, catchUpPartitions)
                .load(Setting.RECORDS_PER_SECOND.asInt(), 512)
                .backlog((quick ? 512L : 1024L) << 20, Setting.BACKLOG_SIGMA.asDouble(), 1)
                .warmup(new WarmUpSettings(Duration.ofSeconds(20), Duration.ofSeconds(120)))
                .steady(quick ? Duration.ofSeconds(15) : Setting.STEADY.asDuration())
                .window(Duration.ofSeconds(quick ? 40 : 60))
                .roundLimit(Duration.ofSeconds(180))
                .rounds(1)
                .policies(NamedPolicy.DEFAULTS.stream()
                        .map(p -> NamedPolicy.parse(p, preferred, checkInterval))
                        .toList())
                .saturation(true, Setting.CPU_CAP_CORES.asDouble())
                .checkIntervalSeconds(checkInterval)
                .out(out)
                .build();
    }

    @Override
    public Integer call() throws Exception {
        PrintWriter stdout = spec.commandLine().getOut();
        LoadTestSettings s = settings(quick, out);
        Saturation saturation = Saturation.of(s.cluster().cpuCapCores());
        if (!saturation.active()) {
            stdout.println("No CPU quota can be set here (" + saturation.describe() + "): the demo shows the mechanism"
                    + " only. Latency is for `pacer loadtest` on a machine where the broker can be capped.");
        }
        LoadTestResult result = new LoadTest(
                        s,
                        () -> LocalTarget.start(
                                s.cluster().brokers(),
                                s.cluster().brokerHeap(),
                                Map.of("auto.leader.rebalance.enable", "false")),
                        saturation,
                        line -> {
                            stdout.println(line);
                            stdout.flush();
                        })
                .run("a Kafka cluster of 1 controller and 3 brokers as separate processes");
        Reports.print(result, stdout);
        Path html = Reports.write(result, out, "pacer demo" + (quick ? " --quick" : ""));
        stdout.println();
        stdout.println("wrote " + html + " (open it in a browser; it works offline) and the CSV files in " + out);
        stdout.println("For figures with a spread, run the full load test: pacer loadtest (about 27 minutes).");
        stdout.flush();
        return 0;
    }
}
