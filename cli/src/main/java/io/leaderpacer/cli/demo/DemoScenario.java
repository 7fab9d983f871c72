package io.leaderpacer.cli.demo;

import io.leaderpacer.embedded.EmbeddedKafkaCluster;
import io.leaderpacer.embedded.SteadyLoad;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.function.Consumer;

/**
 * The whole demo: start the cluster, create the topic, start the load, restart the broker once
 * per policy, print the comparison and write the report.
 *
 * <p>A JVM shutdown hook closes the load and the cluster if the demo is interrupted (Ctrl-C), so
 * that no broker is left half-written; it is removed again when the demo ends normally.
 */
public final class DemoScenario {

    /** Names of the two policies, as the timeline, the comparison and the report show them. */
    static final String PACED = "wait-for-sync";
    static final String BASELINE = "immediate";

    private final DemoSettings settings;
    private final Path outputDirectory;
    private final PrintWriter out;

    /** The demo's figures and files. */
    public record Result(List<RecoveryRun> runs, RecoveryComparison comparison, Path report, Path timeline) {
    }

    public DemoScenario(DemoSettings settings, Path outputDirectory, PrintWriter out) {
        this.settings = settings;
        this.outputDirectory = outputDirectory;
        this.out = out;
    }

    /** Runs the demo; throws when the cluster cannot be started or written to. */
    public Result run() throws InterruptedException, IOException {
        Consumer<String> printer = this::print;
        print("Leader Pacer demo: a real Kafka cluster in this JVM, one broker restarted under each policy.");
        settings.describe().forEach(l -> print("  " + l));
        print("  report      " + outputDirectory.resolve(DemoReport.FILE_NAME));
        DemoLogging.consoleWarningsOnly();

        long t0 = System.nanoTime();
        EmbeddedKafkaCluster cluster = EmbeddedKafkaCluster.builder()
                .brokers(settings.brokers())
                // Small fetches make the follower throttle smooth: with Kafka's default 10 MB responses the
                // restarted broker catches up in 10-second bursts instead of partition by partition.
                .serverProperty("replica.fetch.max.bytes", "262144")
                .serverProperty("replica.fetch.response.max.bytes", "1048588")
                .build();
        // What the shutdown hook must close before the cluster, newest first: the agent, then the load.
        Deque<AutoCloseable> open = new ConcurrentLinkedDeque<>();
        Thread hook = new Thread(() -> {
            print("");
            print("interrupted: stopping the agent, the load and the cluster...");
            closeAll(open);
            cluster.close();
        }, "pacer-demo-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            print("");
            print("starting 3 brokers and a KRaft controller...");
            startQuietly(cluster);
            DemoTopic.create(cluster.admin(), settings, Duration.ofSeconds(90));
            ProduceLatency latency = new ProduceLatency();
            SteadyLoad load = SteadyLoad.builder(cluster.bootstrapServers(), settings.topic())
                    .recordsPerSecond(settings.loadRecordsPerSecond())
                    .recordBytes(settings.recordBytes())
                    // acks=1: see docs/DEMO.md. With acks=all the follower throttle itself stalls the high
                    // watermark for seconds under either policy, which hides what leadership moves cost.
                    .acks("1")
                    .producerProperty("linger.ms", "0")
                    .listener(latency::record)
                    .build();
            open.push(load);
            load.start();
            print(String.format(Locale.ROOT, "cluster up at %s, topic created, load running (%.0f s)",
                    cluster.bootstrapServers(), (System.nanoTime() - t0) / 1e9));

            RecoveryRound round = new RecoveryRound(cluster, settings, latency, printer, open);
            List<RecoveryRun> runs = new ArrayList<>();
            runs.add(round.run(PACED, settings.waitForSync()));
            runs.add(round.run(BASELINE, settings.immediate()));

            double threshold = settings.waitForSync().thresholdPercent();
            List<RecoverySummary> summaries = new ArrayList<>();
            runs.forEach(r -> summaries.add(RecoverySummary.of(r, threshold)));
            RecoveryComparison comparison = new RecoveryComparison(summaries);
            print("");
            print("== comparison (times from the moment broker " + settings.restartedBroker() + " was started again)");
            comparison.lines().forEach(this::print);
            if (latency.failures() > 0) {
                print(latency.failures() + " sends failed in total (their latency is included above)");
            }

            Path report = DemoReport.write(outputDirectory, settings, runs, comparison);
            Path csv = TimelineCsv.write(outputDirectory, runs);
            print("");
            print(String.format(Locale.ROOT, "report:   %s", report));
            print(String.format(Locale.ROOT, "timeline: %s", csv));
            print(String.format(Locale.ROOT, "demo finished in %.0f s", (System.nanoTime() - t0) / 1e9));
            return new Result(runs, comparison, report, csv);
        } finally {
            closeAll(open);
            cluster.close();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // Already shutting down: the hook is running or has run.
            }
        }
    }

    /**
     * Starts the cluster with {@code System.out} silenced: Kafka's storage formatter prints a
     * "Formatting metadata directory" paragraph per node there, which would bury the demo's own
     * output. The demo prints through its own writer, which is unaffected.
     */
    private static void startQuietly(EmbeddedKafkaCluster cluster) {
        PrintStream original = System.out;
        System.setOut(new PrintStream(OutputStream.nullOutputStream(), true, StandardCharsets.UTF_8));
        try {
            cluster.start();
        } finally {
            System.setOut(original);
        }
    }

    private synchronized void print(String line) {
        out.println(line);
        out.flush();
    }

    private static void closeAll(Deque<AutoCloseable> resources) {
        AutoCloseable c;
        while ((c = resources.poll()) != null) {
            try {
                c.close();
            } catch (Exception e) {
                // Shutting down anyway; nothing useful to do with the error.
            }
        }
    }
}
