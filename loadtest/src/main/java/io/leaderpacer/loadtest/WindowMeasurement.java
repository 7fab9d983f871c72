package io.leaderpacer.loadtest;

import io.leaderpacer.cluster.cpu.CgroupThrottling;
import io.leaderpacer.cluster.cpu.CpuQuota;
import io.leaderpacer.cluster.cpu.ProcessCpuTime;
import io.leaderpacer.loadtest.load.ClassifiedLoad;
import io.leaderpacer.loadtest.load.LatencyBook;
import io.leaderpacer.loadtest.load.LatencyFigures;
import io.leaderpacer.loadtest.load.Phase;
import io.leaderpacer.loadtest.load.View;
import io.leaderpacer.loadtest.observe.AgentRunLog;
import io.leaderpacer.loadtest.observe.AgentRunSample;
import io.leaderpacer.loadtest.observe.PartitionSample;
import io.leaderpacer.loadtest.observe.PartitionWatcher;
import io.leaderpacer.loadtest.result.RoundResult.CpuSample;
import io.leaderpacer.report.MeasurementWindow;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * A round's measuring loop, from unfencing on: every {@link #LOOK_MS} it reads the restarted broker's CPU use and the
 * latest partition sample, notes when the broker first leads 99 % of its preferred partitions again, prints the
 * leadership the agent moves back and a progress line, and ends once the window is over, the broker has recovered and
 * every preferred partition is in sync again, or at the round's limit.
 */
final class WindowMeasurement {

    /** How often the round looks at the cluster, the CPU and the clock while it measures. */
    static final long LOOK_MS = 250;
    /** How often a progress line is printed. */
    private static final long PROGRESS_MS = 5000;

    private final LoadTestSettings settings;
    private final ClassifiedLoad load;
    private final PartitionWatcher watcher;
    private final Consumer<String> printer;

    WindowMeasurement(
            LoadTestSettings settings, ClassifiedLoad load, PartitionWatcher watcher, Consumer<String> printer) {
        this.settings = settings;
        this.load = load;
        this.watcher = watcher;
        this.printer = printer;
    }

    /** What the measuring loop saw. */
    static final class Measurement {
        int preferred;
        OptionalLong recoveredAt = OptionalLong.empty();
        /** How long the window was open after unfencing: the set length, or longer to cover the release. */
        long windowMs;
        /** How long KIP-1358's window lasted (ten minutes, to a look); 0 when not measured, -1 when it could not be. */
        long kipWindowMs;

        final List<CpuSample> cpu = new ArrayList<>();
    }

    private static OptionalLong recoveredAfter(Measurement m, long unfencedAt) {
        return m.recoveredAt.isPresent()
                ? OptionalLong.of(m.recoveredAt.getAsLong() - unfencedAt)
                : OptionalLong.empty();
    }

    /** Whether KIP-1358's window is measured and still open {@code sinceUnfencedMs} after unfencing. */
    private boolean kipOpen(long sinceUnfencedMs) {
        return settings.phases().kipWindow() && sinceUnfencedMs < LoadTestSettings.Phases.KIP_WINDOW.toMillis();
    }

    /** Whether sends of the running round go to {@link Phase#KIP_TAIL} now. */
    private boolean kipTail;

    Measurement measure(
            String tag,
            LatencyBook book,
            AgentRunLog runs,
            LongSupplier now,
            long t0,
            long unfencedAt,
            OptionalLong pid,
            Optional<CpuQuota.Limit> cap)
            throws InterruptedException {
        Measurement m = new Measurement();
        MeasurementWindow window =
                MeasurementWindow.coveringRelease(settings.phases().window().toMillis());
        int runsSeen = runs.runs().size();
        boolean windowOpen = true;
        // Whether sends go to KIP-1358's tail: from the strict window's end to ten minutes from unfencing.
        kipTail = false;
        long nextProgress = unfencedAt;
        CpuMeter cpu = new CpuMeter(pid, cap, now.getAsLong());
        while (true) {
            Thread.sleep(LOOK_MS);
            long t = now.getAsLong();
            windowOpen = closeWindows(m, book, window, windowOpen, t - unfencedAt, unfencedAt);
            cpu.sample(m, t);
            PartitionSample s = watcher.last();
            boolean allIn = noteRecovery(m, s, t0, unfencedAt);
            List<AgentRunSample> all = runs.runs();
            printElections(tag, all.subList(runsSeen, all.size()), unfencedAt);
            runsSeen = all.size();
            if (t >= nextProgress) {
                printer.accept(
                        progress(tag, book, s, t - unfencedAt, m, all.isEmpty() ? null : all.get(all.size() - 1)));
                nextProgress += PROGRESS_MS;
            }
            if ((!windowOpen && !kipTail && m.recoveredAt.isPresent() && allIn && !kipOpen(t - unfencedAt))
                    || t - unfencedAt >= settings.phases().roundLimit().toMillis()) {
                if (windowOpen) {
                    m.windowMs = t - unfencedAt; // the round's limit closed it
                }
                return m;
            }
        }
    }

    /**
     * Closes the strict window when it ends (its sends then go to KIP-1358's tail, or after it) and the tail ten minutes
     * from unfencing; returns whether the strict window is still open.
     */
    private boolean closeWindows(
            Measurement m,
            LatencyBook book,
            MeasurementWindow window,
            boolean windowOpen,
            long since,
            long unfencedAt) {
        if (windowOpen && since >= window.endMs(recoveredAfter(m, unfencedAt))) {
            kipTail = kipOpen(since);
            load.recordInto(book, kipTail ? Phase.KIP_TAIL : Phase.AFTER);
            if (settings.phases().kipWindow() && !kipTail) {
                // The strict window outlasted ten minutes: KIP-1358's window is not this round's to report.
                m.kipWindowMs = -1;
            }
            windowOpen = false;
            m.windowMs = since;
        }
        if (!windowOpen && kipTail && since >= LoadTestSettings.Phases.KIP_WINDOW.toMillis()) {
            load.recordInto(book, Phase.AFTER);
            kipTail = false;
            m.kipWindowMs = since;
        }
        return windowOpen;
    }

    /**
     * The restarted broker's CPU in each look, from its process's CPU time (none without a process id), and under a
     * cgroup quota the periods in which the kernel stopped it at its quota since the previous look.
     */
    private static final class CpuMeter {
        private final OptionalLong pid;
        private final Optional<CpuQuota.Limit> cap;
        private long lastAt;
        private long lastNanos;
        private Optional<CgroupThrottling> lastThrottling;

        CpuMeter(OptionalLong pid, Optional<CpuQuota.Limit> cap, long now) {
            this.pid = pid;
            this.cap = cap;
            this.lastAt = now;
            this.lastNanos =
                    pid.isPresent() ? ProcessCpuTime.of(pid.getAsLong()).toNanos() : 0;
            this.lastThrottling = cap.flatMap(CpuQuota.Limit::throttling);
        }

        void sample(Measurement m, long t) {
            if (pid.isEmpty()) {
                return;
            }
            long nanos = cpuNanos(pid.getAsLong(), lastNanos);
            Optional<CgroupThrottling> throttling = cap.flatMap(CpuQuota.Limit::throttling);
            Optional<CgroupThrottling> since = throttling.flatMap(now -> lastThrottling.map(now::minus));
            m.cpu.add(new CpuSample(t, (nanos - lastNanos) / 1e6 / Math.max(1, t - lastAt), since));
            lastNanos = nanos;
            lastAt = t;
            lastThrottling = throttling.or(() -> lastThrottling);
        }
    }

    /**
     * Notes from a fresh partition sample the preferred partitions and when the broker led 99 % of them again;
     * returns whether every one of them is in its ISR.
     */
    private static boolean noteRecovery(Measurement m, PartitionSample s, long t0, long unfencedAt) {
        if (s == null || s.atMs() - t0 <= unfencedAt) {
            return false;
        }
        m.preferred = s.preferred();
        if (m.recoveredAt.isEmpty() && s.preferred() > 0 && s.preferredLed() * 100L >= 99L * s.preferred()) {
            m.recoveredAt = OptionalLong.of(s.atMs() - t0);
        }
        return s.preferredInIsr() == s.preferred();
    }

    /** A console line for each agent run that gave the restarted broker leadership back. */
    private void printElections(String tag, List<AgentRunSample> newRuns, long unfencedAt) {
        for (AgentRunSample r : newRuns) {
            if (r.electedToBroker() > 0) {
                printer.accept(String.format(
                        Locale.ROOT,
                        "%s +%5.1f s  agent: %d leadership%s back to broker %d",
                        tag,
                        (r.atMs() - unfencedAt) / 1000.0,
                        r.electedToBroker(),
                        r.electedToBroker() == 1 ? "" : "s",
                        settings.cluster().restartedBroker()));
            }
        }
    }

    /** The process's CPU time now, or the previous reading when it cannot be read (the process just exited). */
    static long cpuNanos(long pid, long previous) {
        try {
            return ProcessCpuTime.of(pid).toNanos();
        } catch (RuntimeException e) {
            return previous;
        }
    }

    private String progress(
            String tag,
            LatencyBook book,
            PartitionSample s,
            long sinceUnfencedMs,
            Measurement m,
            AgentRunSample lastRun) {
        double cores =
                m.cpu.isEmpty() ? Double.NaN : m.cpu.get(m.cpu.size() - 1).cores();
        String cluster = s == null
                ? "no sample yet"
                : String.format(
                        Locale.ROOT,
                        "in ISR %d/%d, leads %d/%d",
                        s.preferredInIsr(),
                        s.preferred(),
                        s.preferredLed(),
                        s.preferred());
        LatencyFigures all = LatencyFigures.of(book.histogram(Phase.WINDOW, View.ALL));
        LatencyFigures prot = LatencyFigures.of(book.histogram(Phase.WINDOW, View.PROTECTED));
        String gate = lastRun == null ? "no run yet" : lastRun.gated() ? "gated" : "not gated";
        return String.format(
                Locale.ROOT,
                "%s +%3d s  %s, %s  broker CPU %s  window P99 all %.0f ms, protected %.0f ms  failed sends %d",
                tag,
                sinceUnfencedMs / 1000,
                cluster,
                gate,
                Double.isNaN(cores) ? "n/a" : String.format(Locale.ROOT, "%.2f core", cores),
                all.p99Ms(),
                prot.p99Ms(),
                book.errors(Phase.WINDOW, View.ALL).values().stream()
                        .mapToLong(Long::longValue)
                        .sum());
    }
}
