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
            "Start a real 3-broker KRaft Kafka cluster inside this JVM, restart one broker under load with a",
            "replication throttle, and let the agent hand its leadership back: first with wait-for-sync",
            "(gated, then paced batches), then with immediate (Kafka's behaviour today) on the same cluster.",
            "Prints a live timeline and a comparison, and writes an offline HTML report.",
            "Takes about 3 minutes (--quick: about 1.5). Ctrl-C stops the cluster cleanly."},
        footer = {"",
            "Timeline columns: time since the round started; the restarted broker up or down; its preferred",
            "partitions out of its ISR; its gate phase; partitions it leads; elections in that agent run;",
            "produce P99 since the previous line. See docs/DEMO.md."})
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
