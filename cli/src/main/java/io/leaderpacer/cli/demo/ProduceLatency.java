package io.leaderpacer.cli.demo;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Produce latency as producers felt it: every send's time from {@code send()} to acknowledgement
 * (or failure), in intervals for the live timeline and accumulated over a recovery window for the
 * comparison.
 *
 * <p>Why HdrHistogram's {@link Recorder}: sends complete on the producer's I/O thread while the
 * timeline reads intervals on the agent's thread; the recorder swaps histograms without locking
 * the sender, and a window's P99 is computed over every send rather than averaged from
 * per-interval figures (percentiles do not average).
 */
public final class ProduceLatency {

    /** Longest latency tracked: beyond the producer's delivery time-out. */
    private static final long HIGHEST_MICROS = TimeUnit.MINUTES.toMicros(5);

    /** Written by the producer's I/O thread, read by {@link #takeInterval()}. */
    private final Recorder recorder = new Recorder(HIGHEST_MICROS, 2);
    /** Sends that failed (time-out, not enough replicas...); their latency is recorded too. */
    private final AtomicLong failures = new AtomicLong();
    /** Reused by the recorder to avoid allocating a histogram per interval. */
    private Histogram recycled;
    /** The open window's accumulation, or null when no window is open. */
    private Histogram window;
    /**
     * Sends completed before the window opened, not yet handed out by {@link #takeInterval()}:
     * they belong to the next interval but not to the window.
     */
    private Histogram carried;

    /** One send completed after {@code latencyNanos}; {@code error} is null on success. */
    public void record(long latencyNanos, Exception error) {
        if (error != null) {
            failures.incrementAndGet();
        }
        recorder.recordValue(Math.min(HIGHEST_MICROS, Math.max(0, latencyNanos / 1000)));
    }

    /** Latency figures of one interval. */
    public record Interval(double p99Ms, long count) {
    }

    /**
     * The sends completed since the previous call; they also count towards the open window.
     * Called from one thread at a time.
     */
    public synchronized Interval takeInterval() {
        Histogram h = recorder.getIntervalHistogram(recycled);
        if (window != null) {
            window.add(h);
        }
        if (carried != null) {
            h.add(carried);
            carried = null;
        }
        Interval out = new Interval(p99Ms(h), h.getTotalCount());
        recycled = h;
        return out;
    }

    /**
     * Starts accumulating a window from now (drops any open one): sends completed before this call
     * still go to the next interval, but not to the window.
     */
    public synchronized void openWindow() {
        Histogram before = recorder.getIntervalHistogram();
        if (carried == null) {
            carried = before;
        } else {
            carried.add(before);
        }
        window = new Histogram(HIGHEST_MICROS, 2);
    }

    /** Closes the window and returns its P99 and count (NaN and 0 when none was open). */
    public synchronized Interval closeWindow() {
        Histogram w = window;
        window = null;
        return w == null ? new Interval(Double.NaN, 0) : new Interval(p99Ms(w), w.getTotalCount());
    }

    /** Sends that failed so far. */
    public long failures() {
        return failures.get();
    }

    static double p99Ms(Histogram h) {
        return h.getTotalCount() == 0 ? Double.NaN : h.getValueAtPercentile(99.0) / 1000.0;
    }
}
