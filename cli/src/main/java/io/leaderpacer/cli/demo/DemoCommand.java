package io.leaderpacer.cli.demo;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * {@code pacer demo}: the README's first command. Needs nothing but Java; everything else (Kafka's
 * brokers and controller, the load, the agent) runs inside this JVM.
 */
@Command(name = "demo",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Restart a broker of a real Kafka cluster running in this JVM and watch the agent pace its leadership back.",
            "",
            "Starts 3 brokers and a KRaft controller (Kafka's own code, nothing to install), creates 300 partitions,"
                + " produces steady load, and restarts broker 1 with a replication throttle so that its partitions"
                + " rejoin their ISRs over tens of seconds. The agent hands its leadership back first with"
                + " wait-for-sync (gated, then paced batches), then with immediate (Kafka's behaviour today),"
                + " on the same cluster. Prints a live timeline and a comparison, and writes an offline HTML report.",
            "",
            "Takes about 3 minutes (--quick: about 2). Ctrl-C stops the cluster cleanly.",
            ""},
        footer = {"",
            "Timeline columns: time since the round started; whether the restarted broker is up; how many of its"
                + " preferred partitions are out of its ISR; its gate phase; how many partitions it leads;"
                + " elections made by that agent run; produce P99 since the previous line. See docs/DEMO.md."})
public final class DemoCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Option(names = "--quick", description = "Less data to catch up on: a shorter run with the same shape.")
    private boolean quick;

    @Option(names = "--out", paramLabel = "DIR", defaultValue = "target/pacer-demo",
            description = "Where to write report.html and timeline.csv (default: ${DEFAULT-VALUE}).")
    private Path out;

    @Override
    public Integer call() throws Exception {
        DemoSettings settings = quick ? DemoSettings.quick() : DemoSettings.standard();
        new DemoScenario(settings, out, spec.commandLine().getOut()).run();
        return 0;
    }
}
