package io.leaderpacer.simulator.run;

import java.util.Arrays;

/**
 * The restarted broker's CPU use (cores) from its unfencing to its last preferred ISR re-entry, averaged over the
 * model's ticks, as the load test's {@code catch_up_busy_cores} averages the broker's cgroup over the same span.
 * Why: it is one of the headline figures a paced recovery is judged by (how hard the catch-up drives the broker), and
 * the one that says whether the model's CPU-bound capacities stand for the cores the run gave the broker.
 *
 * <p>The span's end is known only once the simulation has ended, so every tick from the unfencing is kept: a few
 * thousand values for a recovery window.
 */
final class CatchUpCpu {

    private long unfencedAtMs = Long.MIN_VALUE;
    private double[] cores = new double[256];
    private long[] atMs = new long[256];
    private int n;

    /** One tick of the broker once unfenced ({@code unfencedAtMs} its unfencing): its busy cores now. */
    void record(long nowMs, long unfencedAtMs, double busyCores) {
        if (this.unfencedAtMs == Long.MIN_VALUE) {
            this.unfencedAtMs = unfencedAtMs;
        }
        if (n == cores.length) {
            cores = Arrays.copyOf(cores, n * 2);
            atMs = Arrays.copyOf(atMs, n * 2);
        }
        cores[n] = busyCores;
        atMs[n] = nowMs;
        n++;
    }

    /**
     * The mean busy cores of the ticks from the unfencing to {@code lastReentrySeconds} after it; NaN when the broker
     * was never unfenced, never re-entered, or the model names no cores.
     */
    double meanCores(double lastReentrySeconds) {
        if (unfencedAtMs == Long.MIN_VALUE || !Double.isFinite(lastReentrySeconds)) {
            return Double.NaN;
        }
        long end = unfencedAtMs + Math.round(lastReentrySeconds * 1000);
        double sum = 0;
        int count = 0;
        for (int i = 0; i < n && atMs[i] <= end; i++) {
            sum += cores[i];
            count++;
        }
        return count == 0 ? Double.NaN : sum / count;
    }
}
