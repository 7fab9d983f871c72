package io.leaderpacer.loadtest;

import io.leaderpacer.loadtest.load.ClassifiedLoad;
import io.leaderpacer.loadtest.load.GroupReader;
import io.leaderpacer.loadtest.observe.PartitionWatcher;
import io.leaderpacer.loadtest.result.LoadTestResult;
import io.leaderpacer.loadtest.result.RollingResult;
import io.leaderpacer.loadtest.result.RoundResult;
import io.leaderpacer.loadtest.steady.WarmUp;
import io.leaderpacer.loadtest.steady.WarmUpOutcome;
import io.leaderpacer.loadtest.testbed.Saturation;
import io.leaderpacer.loadtest.testbed.TargetCluster;
import org.apache.kafka.clients.admin.Admin;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * KIP-1358's system test, run: on a cluster with steady load, the same broker is stopped and restarted once per
 * round, rounds alternating between the policies, each measured the same way (see {@link RecoveryRound}).
 *
 * <p>Everything it opens (the cluster, clients, the agent) is closed newest first at the end, on failure, and on
 * Ctrl-C (a shutdown hook), so no process or client is left behind.
 */
public final class LoadTest {

    /** How often the partition watcher looks at the cluster. */
    private static final long WATCH_PERIOD_MS = 500;

    private final LoadTestSettings settings;
    private final Supplier<TargetCluster> targetFactory;
    private final Saturation saturation;
    private final Consumer<String> printer;
    /** Closed newest first; shared with the shutdown hook. */
    private final Deque<AutoCloseable> open = new ArrayDeque<>();
    /** Told the result so far after each round, so that a run stopped half way keeps what it measured. */
    private RoundsSoFar afterEachRound = result -> {};

    /** What a caller does with the result so far after each round (e.g. write the reports). */
    @FunctionalInterface
    public interface RoundsSoFar {
        void accept(LoadTestResult resultSoFar) throws Exception;
    }

    /** Told the result so far after each round (default: nothing). */
    public LoadTest afterEachRound(RoundsSoFar value) {
        this.afterEachRound = Objects.requireNonNull(value, "value");
        return this;
    }

    public LoadTest(
            LoadTestSettings settings,
            Supplier<TargetCluster> targetFactory,
            Saturation saturation,
            Consumer<String> printer) {
        this.settings = settings;
        this.targetFactory = targetFactory;
        this.saturation = saturation;
        this.printer = printer;
    }

    /** Runs every round and returns the results; the caller writes the reports. */
    public LoadTestResult run(String clusterDescriptionForPrinting) throws Exception {
        return session(clusterDescriptionForPrinting, (session, context) -> {
            RecoveryRound round = new RecoveryRound(settings, context);
            return session.result(eachRound(round::run, soFar -> afterEachRound.accept(session.result(soFar))));
        });
    }

    /**
     * Runs every round as a rolling restart ({@link RollingRound}) and returns their results; {@code afterEach} is told
     * the results so far after each round, so that a run stopped half way keeps what it measured.
     */
    public List<RollingResult> runRolling(String clusterDescriptionForPrinting, RollingSoFar afterEach)
            throws Exception {
        return session(clusterDescriptionForPrinting, (session, context) -> {
            RollingRound round = new RollingRound(settings, context);
            return eachRound(round::run, afterEach::accept);
        });
    }

    /** One round of one policy, numbered from 1 per policy. */
    @FunctionalInterface
    private interface RoundOf<R> {
        R run(NamedPolicy policy, int round) throws Exception;
    }

    /** What is done with the results so far after each round. */
    @FunctionalInterface
    private interface AfterRound<R> {
        void accept(List<R> soFar) throws Exception;
    }

    /** Runs a round per entry of the run's order, alternating policies, telling {@code after} the results so far. */
    private <R> List<R> eachRound(RoundOf<R> round, AfterRound<R> after) throws Exception {
        List<R> results = new ArrayList<>();
        Map<String, Integer> done = new HashMap<>();
        for (NamedPolicy policy : settings.order()) {
            int n = done.merge(policy.name(), 1, Integer::sum);
            results.add(round.run(policy, n));
            after.accept(List.copyOf(results));
        }
        return results;
    }

    /** What a caller does with a rolling run's results so far. */
    @FunctionalInterface
    public interface RollingSoFar {
        void accept(List<RollingResult> soFar) throws Exception;
    }

    /** The settings as printed, whether the restarted broker is capped, the warm-up: what every result carries. */
    private record Session(List<String> lines, boolean saturated, WarmUpOutcome warmUp) {
        LoadTestResult result(List<RoundResult> rounds) {
            return new LoadTestResult(lines, saturated, NamedPolicy.BASELINE, rounds, Optional.of(warmUp));
        }
    }

    /** The rounds of a run, given the cluster, its topics, its load and the warm-up done. */
    @FunctionalInterface
    private interface Rounds<R> {
        R run(Session session, RecoveryRound.RoundContext context) throws Exception;
    }

    /**
     * Starts the cluster, creates the topics, starts the load and warms up, then runs the rounds; closes everything it
     * opened at the end, on failure and on Ctrl-C.
     */
    private <R> R session(String clusterDescriptionForPrinting, Rounds<R> rounds) throws Exception {
        Thread hook = new Thread(this::closeAll, "loadtest-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        long start = System.nanoTime();
        LongSupplier clockMs = () -> (System.nanoTime() - start) / 1_000_000L;
        try {
            printer.accept("starting " + clusterDescriptionForPrinting + " ...");
            TargetCluster target = push(targetFactory.get());
            if (!target.brokerIds().contains(settings.cluster().restartedBroker())) {
                throw new IllegalArgumentException(
                        "--restart-broker " + settings.cluster().restartedBroker()
                                + " is not a broker of the cluster (brokers: " + target.brokerIds() + ")");
            }
            Map<String, Object> client = target.clientProperties();
            Admin admin = push(Admin.create(new HashMap<>(client)));
            List<String> lines = settings.describe(target.description(), saturation.describe());
            lines.forEach(printer);
            TestTopics topics =
                    new TestTopics(admin, target.brokerIds(), settings.cluster().restartedBroker());
            createTopics(topics);
            PartitionWatcher watcher = push(new PartitionWatcher(
                            admin,
                            settings.cluster().restartedBroker(),
                            LoadTestSettings.LOAD_TOPIC,
                            settings.topics().loadPartitions(),
                            clockMs)
                    .start(WATCH_PERIOD_MS));
            ClassifiedLoad load = push(new ClassifiedLoad(
                    client,
                    LoadTestSettings.LOAD_TOPIC,
                    settings.load().recordsPerSecond(),
                    settings.load().recordBytes(),
                    topics.classes(settings.topics().loadPartitions()),
                    topics.preferredLeaders(settings.topics().loadPartitions()),
                    watcher::role));
            load.start();
            push(new GroupReader(client, LoadTestSettings.LOAD_TOPIC, "leader-pacer-loadtest").start());
            printer.accept("warm-up until steady, "
                    + settings.phases().warmup().minimum().toSeconds() + " to "
                    + settings.phases().warmup().limit().toSeconds() + " s (thrown away)");
            WarmUpOutcome warmUp = WarmUp.run(settings.phases().warmup(), load, clockMs, printer);
            return rounds.run(
                    new Session(lines, saturation.active(), warmUp),
                    new RecoveryRound.RoundContext(
                            target, admin, topics, load, watcher, saturation, clockMs, printer, open));
        } finally {
            closeAll();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // Already shutting down: the hook is running.
            }
        }
    }

    /** The load topic, and the catch-up topic the first round uses as it is. */
    private void createTopics(TestTopics topics) throws Exception {
        topics.delete(LoadTestSettings.LOAD_TOPIC);
        topics.create(
                LoadTestSettings.LOAD_TOPIC,
                settings.topics().loadPartitions(),
                Map.of(
                        "segment.bytes",
                        Integer.toString(16 * 1024 * 1024),
                        "retention.bytes",
                        Integer.toString(32 * 1024 * 1024)));
        // Before the warm-up, so that the warm-up also waits out its creation: the first round uses it as it is.
        topics.delete(settings.topics().catchUpTopic());
        topics.create(settings.topics().catchUpTopic(), settings.topics().catchUpPartitions(), Map.of());
    }

    private <T extends AutoCloseable> T push(T resource) {
        synchronized (open) {
            open.push(resource);
        }
        return resource;
    }

    private void closeAll() {
        while (true) {
            AutoCloseable next;
            synchronized (open) {
                next = open.poll();
            }
            if (next == null) {
                return;
            }
            try {
                next.close();
            } catch (Exception e) {
                printer.accept("while closing: " + e.getMessage());
            }
        }
    }
}
