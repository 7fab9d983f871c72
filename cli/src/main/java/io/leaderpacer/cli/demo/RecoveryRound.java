package io.leaderpacer.cli.demo;

import io.leaderpacer.loadtest.AgentRunLoop;
import io.leaderpacer.agent.PacerAgent;
import io.leaderpacer.embedded.EmbeddedKafkaCluster;
import io.leaderpacer.engine.config.PacerConfig;

import java.time.Duration;
import java.util.Deque;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * One broker restart under one policy, on a running cluster with load: the agent runs, the broker
 * is stopped, data is written while it is down, it is started again under a follower throttle,
 * and the round ends when it leads all its preferred partitions again (or on time-out), once it
 * has caught up on every partition, so that the next round starts from the same state.
 */
final class RecoveryRound {

    private static final long MIB = 1024L * 1024L;
    /** Bound on waiting for the catch-up to complete between rounds. */
    private static final Duration CATCH_UP_LIMIT = Duration.ofSeconds(120);

    private final EmbeddedKafkaCluster cluster;
    private final DemoSettings settings;
    private final ProduceLatency latency;
    private final Consumer<String> printer;
    /** Resources the demo's shutdown hook closes on Ctrl-C; the round's agent is pushed while it runs. */
    private final Deque<AutoCloseable> open;

    RecoveryRound(EmbeddedKafkaCluster cluster, DemoSettings settings, ProduceLatency latency, Consumer<String> printer,
                  Deque<AutoCloseable> open) {
        this.cluster = cluster;
        this.settings = settings;
        this.latency = latency;
        this.printer = printer;
        this.open = open;
    }

    /** Runs the round and returns what was recorded. */
    RecoveryRun run(String name, PacerConfig policy) throws InterruptedException {
        int b = settings.restartedBroker();
        String policyLine = DemoSettings.policyLine(policy);
        printer.accept("");
        printer.accept("== " + name + ": " + policyLine);
        long start = System.currentTimeMillis();
        TimelineRecorder recorder = new TimelineRecorder(b, latency, printer, start);
        printer.accept(recorder.header());
        PacerAgent agent = PacerAgent.builder(cluster.admin())
                .basePolicy(policy)
                .clusterLabel("the demo cluster")
                .listener(recorder)
                .build();
        long restartAt;
        boolean recovered;
        ProduceLatency.Interval window;
        try (AgentRunLoop loop = new AgentRunLoop(agent, "pacer-demo-agent")) {
            open.push(loop);
            loop.start();
            // The broker-level rate must be set while the broker runs: the change is routed to it.
            // The broker-level rate must be set while the broker runs: the change is routed to it.
            cluster.setFollowerThrottle(b, settings.throttleBytesPerSecond(), settings.topic());
            event(start, "stopping broker " + b + " (controlled shutdown: its leadership moves to the other brokers)");
            cluster.stopBroker(b);
            CatchUpBacklog.write(cluster.bootstrapServers(), settings, Duration.ofSeconds(120));
            event(start, String.format(Locale.ROOT, "broker %d is down and %d MiB were written meanwhile;"
                    + " starting it again with a %d MiB/s follower throttle", b, settings.backlogBytes() / MIB,
                    settings.throttleBytesPerSecond() / MIB));
            latency.openWindow();
            cluster.startBroker(b);
            restartAt = System.currentTimeMillis() - start;
            recorder.markRestarted();
            event(start, "broker " + b + " is back: its partitions rejoin their ISRs one by one as it catches up");
            recovered = recorder.awaitRecovered(settings.recoveryTimeout().toMillis());
            window = latency.closeWindow();
            open.remove(loop);
        }
        if (recovered) {
            event(start, "broker " + b + " leads all its preferred partitions again");
        } else {
            event(start, "broker " + b + " did not get all its leadership back within "
                    + settings.recoveryTimeout().toSeconds() + " s");
        }
        cluster.clearFollowerThrottle(b, settings.topic());
        DemoTopic.awaitFullIsr(cluster.admin(), settings, CATCH_UP_LIMIT);
        return new RecoveryRun(name, policyLine, b, restartAt, recorder.samples(), window.p99Ms(), window.count());
    }

    private void event(long roundStart, String text) {
        printer.accept(TimelineFormat.event(System.currentTimeMillis() - roundStart, text));
    }
}
