package io.leaderpacer.loadtest;

import io.leaderpacer.cluster.cpu.CpuQuota;
import io.leaderpacer.loadtest.load.BacklogWriter;
import io.leaderpacer.loadtest.load.ClassifiedLoad;
import io.leaderpacer.loadtest.load.LatencyBook;
import io.leaderpacer.loadtest.load.LatencyFigures;
import io.leaderpacer.loadtest.load.Phase;
import io.leaderpacer.loadtest.load.View;
import io.leaderpacer.loadtest.observe.AgentRunLog;
import io.leaderpacer.loadtest.observe.AgentRunSample;
import io.leaderpacer.loadtest.observe.BrokerStatus;
import io.leaderpacer.loadtest.observe.PacingLog;
import io.leaderpacer.loadtest.observe.PartitionSample;
import io.leaderpacer.loadtest.observe.PartitionWatcher;
import io.leaderpacer.loadtest.observe.ThreadCpuSampler;
import io.leaderpacer.loadtest.result.RoundResult;
import io.leaderpacer.loadtest.result.RoundResult.CpuSample;
import io.leaderpacer.loadtest.result.RoundResult.SaturationFigures;
import io.leaderpacer.loadtest.result.Timeline;
import io.leaderpacer.loadtest.steady.SteadyWindow;
import io.leaderpacer.loadtest.steady.SteadyWindows;
import io.leaderpacer.loadtest.testbed.LocalTarget;
import io.leaderpacer.loadtest.testbed.Saturation;
import io.leaderpacer.loadtest.testbed.TargetCluster;
import io.leaderpacer.report.MeasurementWindow;
import org.apache.kafka.clients.admin.Admin;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * One broker restart under one policy: the agent runs with the policy, a steady phase gives the reference, the broker
 * is stopped, the backlog is written, the broker is started again and capped, and the round measures until the window
 * after unfencing is over and the broker leads its preferred partitions again (or the round's limit). Then the cluster
 * is put back as it was: cap removed, full ISRs, every partition on its preferred leader.
 */
final class RecoveryRound {

    /** Pause between the round's start (after a new catch-up topic, its creation) and the steady phase. */
    private static final long SETTLE_MS = 5000;

    private static final Duration BROKER_SETTINGS_LIMIT = Duration.ofSeconds(30);
    /** How long after unfencing the restarted broker's CPU is sampled by thread group. */
    private static final long THREADS_AFTER_UNFENCING_MS = 60_000;

    private final LoadTestSettings settings;
    private final TargetCluster target;
    private final Admin admin;
    private final TestTopics topics;
    private final ClassifiedLoad load;
    private final PartitionWatcher watcher;
    private final Saturation saturation;
    private final LongSupplier testClockMs;
    private final Consumer<String> printer;
    /** What Ctrl-C must close; the round's agent is pushed while it runs. */
    private final Deque<AutoCloseable> open;
    /**
     * Whether a round has written a backlog into the catch-up topic. The test creates the topic empty before its
     * warm-up, so the first round uses it as it is; every later one deletes and creates it again. Why: at 14,700
     * partitions a creation kept the brokers and the controller busy for minutes (evidence run 12: heartbeats timed
     * out, the steady phase after it 4× the pooled reference), and the warm-up waits that out where a round cannot.
     */
    private boolean catchUpTopicUsed;

    RecoveryRound(LoadTestSettings settings, RoundContext context) {
        this.settings = settings;
        this.target = context.target();
        this.admin = context.admin();
        this.topics = context.topics();
        this.load = context.load();
        this.watcher = context.watcher();
        this.saturation = context.saturation();
        this.testClockMs = context.testClockMs();
        this.printer = context.printer();
        this.open = context.open();
    }

    /** What a round works with, shared by every round of a test. */
    record RoundContext(
            TargetCluster target,
            Admin admin,
            TestTopics topics,
            ClassifiedLoad load,
            PartitionWatcher watcher,
            Saturation saturation,
            LongSupplier testClockMs,
            Consumer<String> printer,
            Deque<AutoCloseable> open) {}

    /**
     * Runs one round, phase by phase: the steady reference, the stop and the backlog, the restart, the measurement,
     * then the result and the cluster put back.
     */
    RoundResult run(NamedPolicy policy, int round) throws Exception {
        if (catchUpTopicUsed) {
            topics.delete(settings.topics().catchUpTopic());
            topics.create(settings.topics().catchUpTopic(), settings.topics().catchUpPartitions(), Map.of());
        }
        catchUpTopicUsed = true;
        RoundBrokerSettings brokerSettings =
                RoundBrokerSettings.apply(admin, policy.brokerSettings(), target.brokerIds(), BROKER_SETTINGS_LIMIT);
        open.push(brokerSettings);
        try {
            return measure(policy, round);
        } finally {
            if (open.remove(brokerSettings)) {
                brokerSettings.close();
            }
        }
    }

    /** The round itself, under its broker settings. */
    private RoundResult measure(NamedPolicy policy, int round) throws Exception {
        if (!policy.restartedSettings().isEmpty()) {
            printer.accept(String.format(
                    Locale.ROOT,
                    "[%s %d/%d] the restarted broker starts with %s",
                    policy.name(),
                    round,
                    settings.comparison().rounds(),
                    policy.restartedSettings()));
        }
        if (!policy.brokerSettings().isEmpty()) {
            printer.accept(String.format(
                    Locale.ROOT,
                    "[%s %d/%d] brokers run with %s",
                    policy.name(),
                    round,
                    settings.comparison().rounds(),
                    policy.brokerSettings()));
        }
        RoundState state = new RoundState(policy, round);
        open.push(state.loop);
        try {
            state.loop.start();
            SteadyPhase steady = steadyPhase(state);
            long stoppedAt = stopAndWriteBacklog(state);
            Restart restart = restart(state);
            WindowMeasurement.Measurement m = new WindowMeasurement(settings, load, watcher, printer)
                    .measure(
                            state.tag,
                            state.book,
                            state.runs,
                            state.now,
                            state.t0,
                            restart.unfencedAt(),
                            restart.pid(),
                            state.cap);
            long endedAt = stopMeasuring(state);
            RoundResult result = result(
                    state,
                    steady,
                    new RoundResult.Moments(
                            stoppedAt, restart.restartedAt(), restart.unfencedAt(), m.windowMs, endedAt, m.kipWindowMs),
                    restart,
                    m);
            ClusterReset.afterRound(admin, topics, target.brokerIds(), state.tag, printer);
            return result;
        } finally {
            state.close();
        }
    }

    /** What one round holds while it runs: its clock, its latency book, its agent and the broker's CPU cap. */
    private final class RoundState implements AutoCloseable {
        final NamedPolicy policy;
        final int round;
        final String tag;
        final long t0 = testClockMs.getAsLong();
        final LongSupplier now = () -> testClockMs.getAsLong() - t0;
        final LatencyBook book = new LatencyBook();
        final ScheduledExecutorService ticker = secondTicker(book);
        final AgentRunLog runs;
        final PacingLog pacing;
        final AgentRunLoop loop;
        Optional<CpuQuota.Limit> cap = Optional.empty();
        /** The restarted broker's CPU by thread group, from its registration; it also spares the compiler. */
        Optional<ThreadCpuSampler> threads = Optional.empty();

        RoundState(NamedPolicy policy, int round) {
            this.policy = policy;
            this.round = round;
            int b = settings.cluster().restartedBroker();
            this.tag = String.format(
                    Locale.ROOT,
                    "[%s %d/%d]",
                    policy.name(),
                    round,
                    settings.comparison().rounds());
            this.runs = new AgentRunLog(b, now);
            this.pacing = new PacingLog(b, now);
            this.loop = AgentRunLoop.forPolicy(
                    policy, admin, target, agent -> agent.listener(runs).pacingListener(pacing));
        }

        void removeCap() {
            cap.ifPresent(CpuQuota.Limit::remove);
            cap = Optional.empty();
        }

        @Override
        public void close() {
            threads.ifPresent(ThreadCpuSampler::close);
            removeCap();
            load.stopRecording();
            ticker.shutdownNow();
            if (open.remove(loop)) {
                loop.close();
            }
        }
    }

    /** The steady phase's windows and the restarted broker's CPU use in it, uncapped. */
    private record SteadyPhase(List<SteadyWindow> windows, OptionalDouble brokerCores) {}

    /** When the broker was started again and unfenced, its process, and whether its CPU cap was seen. */
    private record Restart(long restartedAt, long unfencedAt, OptionalLong pid, boolean capVisible) {}

    private SteadyPhase steadyPhase(RoundState state) throws InterruptedException {
        // The catch-up topic was just created: let its creation's work settle before the reference is taken.
        Thread.sleep(SETTLE_MS);
        load.recordInto(state.book, Phase.STEADY);
        printer.accept(
                state.tag + " steady phase, " + settings.phases().steady().toSeconds() + " s");
        OptionalLong pid = target.pid(settings.cluster().restartedBroker());
        long cpuStart = pid.isPresent() ? WindowMeasurement.cpuNanos(pid.getAsLong(), 0) : 0;
        long start = System.nanoTime();
        List<SteadyWindow> windows = steadyWindows(state.book);
        OptionalDouble cores = pid.isPresent()
                ? OptionalDouble.of((WindowMeasurement.cpuNanos(pid.getAsLong(), cpuStart) - cpuStart)
                        / (double) (System.nanoTime() - start))
                : OptionalDouble.empty();
        return new SteadyPhase(windows, cores);
    }

    /** Stops the broker, waits until the controller fences it and writes the round's backlog; returns the stop's time. */
    private long stopAndWriteBacklog(RoundState state) throws Exception {
        int b = settings.cluster().restartedBroker();
        long stoppedAt = state.now.getAsLong();
        load.recordInto(state.book, Phase.DOWN);
        printer.accept(state.tag + " stopping broker " + b + " ("
                + settings.backlog().shutdown().name().toLowerCase(Locale.ROOT) + ")");
        target.stopBroker(b, settings.backlog().shutdown());
        BrokerStatus.awaitFenced(admin, b);
        int[] backlog = settings.backlog().recordsPerPartition(settings.topics().catchUpPartitions(), state.round);
        long written = BacklogWriter.write(
                target.clientProperties(), settings.topics().catchUpTopic(), backlog, Duration.ofMinutes(10));
        printer.accept(String.format(
                Locale.ROOT,
                "%s %d MiB written while broker %d is down; starting it again",
                state.tag,
                written / (1024 * 1024),
                b));
        long left = settings.backlog().downFor().toMillis() - (state.now.getAsLong() - stoppedAt);
        if (left > 0) {
            printer.accept(String.format(
                    Locale.ROOT,
                    "%s waiting %.1f s more: down for at least %.0f s",
                    state.tag,
                    left / 1000.0,
                    settings.backlog().downFor().toMillis() / 1000.0));
            Thread.sleep(left);
        }
        return stoppedAt;
    }

    /** Starts the broker again, caps its CPU and waits until the controller unfences it: the window begins. */
    private Restart restart(RoundState state) throws Exception {
        int b = settings.cluster().restartedBroker();
        long restartedAt = state.now.getAsLong();
        target.startBroker(b, state.policy.restartedSettings());
        boolean visible = false;
        OptionalLong pid = OptionalLong.empty();
        if (target instanceof LocalTarget local) {
            local.awaitRegistered(b);
            pid = target.pid(b);
            if (pid.isPresent()) {
                state.cap = saturation.apply(pid.getAsLong());
                visible = state.cap.map(CpuQuota.Limit::visibleInProcCgroup).orElse(false);
                state.threads = Optional.of(new ThreadCpuSampler(
                        pid.getAsLong(), saturation.sparesCompiler() ? state.cap : Optional.empty(), state.now));
            }
        }
        BrokerStatus.awaitUnfenced(admin, b);
        long unfencedAt = state.now.getAsLong();
        state.threads.ifPresent(t -> t.until(unfencedAt + THREADS_AFTER_UNFENCING_MS));
        watcher.trackReentries();
        load.recordInto(state.book, Phase.WINDOW);
        printer.accept(String.format(
                Locale.ROOT,
                "%s broker %d unfenced %.1f s after its start; window begins"
                        + " (%d s, or until %d s after it leads again if later)",
                state.tag,
                b,
                (unfencedAt - restartedAt) / 1000.0,
                settings.phases().window().toSeconds(),
                MeasurementWindow.RELEASE_TAIL_MS / 1000));
        return new Restart(restartedAt, unfencedAt, pid, visible);
    }

    /** Stops the load's recording, the agent and the cap, and closes the last second; returns the end's time. */
    private long stopMeasuring(RoundState state) {
        long endedAt = state.now.getAsLong();
        load.stopRecording();
        state.loop.close();
        open.remove(state.loop);
        state.removeCap();
        load.awaitInFlight();
        state.ticker.shutdownNow();
        state.book.rollSecond(endedAt / 1000 + 1);
        return endedAt;
    }

    private RoundResult result(
            RoundState state,
            SteadyPhase steady,
            RoundResult.Moments moments,
            Restart restart,
            WindowMeasurement.Measurement m) {
        long unfencedAt = moments.unfencedAtMs();
        Timeline timeline =
                Timeline.of(m.preferred, shift(watcher.preferredReentries().values(), state.t0), unfencedAt);
        long catchUpEnd = timeline.physicalLimitMs().isPresent()
                ? unfencedAt + timeline.physicalLimitMs().getAsLong()
                : moments.endedAtMs();
        RoundResult.Latency latency = RoundLatency.of(state.book, steady.windows(), m.kipWindowMs > 0);
        RoundResult.Recovery recovery = new RoundResult.Recovery(
                m.recoveredAt, gateRelease(state.runs.runs(), unfencedAt, state.policy), timeline);
        SaturationFigures figures = new SaturationFigures(
                saturation.mode(),
                saturation.capCores(),
                restart.capVisible(),
                averageCores(m.cpu, unfencedAt, catchUpEnd),
                steady.brokerCores(),
                averageCores(m.cpu, catchUpEnd, moments.endedAtMs()));
        long stoppedAt = moments.stoppedAtMs();
        RoundResult.Trace trace = new RoundResult.Trace(
                state.runs.runs().stream().filter(r -> r.atMs() >= stoppedAt).toList(),
                samplesOfRound(state.t0),
                m.cpu,
                state.pacing.samples().stream()
                        .filter(x -> x.atMs() >= stoppedAt)
                        .toList(),
                state.threads.map(ThreadCpuSampler::samples).orElse(List.of()));
        return new RoundResult(state.policy.name(), state.round, latency, moments, recovery, figures, trace);
    }

    /**
     * Waits out the steady phase window by window ({@link SteadyWindows#WINDOW}), keeping each window's P99 per
     * view for the run's pooled reference; a remainder shorter than a window is waited out without one.
     */
    private List<SteadyWindow> steadyWindows(LatencyBook book) throws InterruptedException {
        long windowMs = SteadyWindows.WINDOW.toMillis();
        long windows = settings.phases().steady().toMillis() / windowMs;
        List<SteadyWindow> out = new ArrayList<>();
        book.closeWindow();
        for (int i = 0; i < windows; i++) {
            Thread.sleep(windowMs);
            for (Map.Entry<View, LatencyFigures> e : book.closeWindow().entrySet()) {
                out.add(new SteadyWindow(
                        e.getKey(), i, e.getValue().count(), e.getValue().p99Ms()));
            }
        }
        Thread.sleep(settings.phases().steady().toMillis() - windows * windowMs);
        return out;
    }

    private ScheduledExecutorService secondTicker(LatencyBook book) {
        ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "loadtest-seconds");
            t.setDaemon(true);
            return t;
        });
        AtomicLong second = new AtomicLong();
        ticker.scheduleAtFixedRate(() -> book.rollSecond(second.getAndIncrement()), 1, 1, TimeUnit.SECONDS);
        return ticker;
    }

    /** The first successful run after unfencing that left the broker ungated ({@code wait-for-sync} only). */
    private static OptionalLong gateRelease(List<AgentRunSample> runs, long unfencedAt, NamedPolicy policy) {
        if (!policy.config().waitForSync()) {
            return OptionalLong.empty();
        }
        return runs.stream()
                .filter(r -> r.atMs() > unfencedAt && !r.failed() && !r.gated())
                .mapToLong(AgentRunSample::atMs)
                .findFirst();
    }

    private static OptionalDouble averageCores(List<CpuSample> cpu, long from, long to) {
        return cpu.stream()
                .filter(c -> c.atMs() > from && c.atMs() <= Math.max(to, from + WindowMeasurement.LOOK_MS))
                .mapToDouble(CpuSample::cores)
                .average();
    }

    private static List<Long> shift(Collection<Long> testMs, long t0) {
        return testMs.stream().map(v -> v - t0).toList();
    }

    private List<PartitionSample> samplesOfRound(long t0) {
        return watcher.samples().stream()
                .filter(s -> s.atMs() >= t0)
                .map(s -> s.at(s.atMs() - t0))
                .toList();
    }
}
