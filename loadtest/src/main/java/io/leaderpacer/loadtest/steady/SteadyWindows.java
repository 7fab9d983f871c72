package io.leaderpacer.loadtest.steady;

import java.time.Duration;
import java.util.List;

/**
 * When a run of windows counts as steady: the last {@link #WINDOWS} windows' P99s lie within a factor
 * {@link #BOUND} of each other, and each window had sends.
 *
 * <p>Why a ratio and not a fixed band: steady P99s on the machines these tests run on ranged from tens to
 * hundreds of milliseconds between runs; what the warm-up must rule out is a window several times its
 * neighbours (JIT compilation, topic creation, a page-cache fill), which a factor of 2 catches. At 100 sends a
 * second a window's P99 is its 5th-slowest send: finer bounds would chase noise.
 */
public final class SteadyWindows {

    /** The length of one window. */
    public static final Duration WINDOW = Duration.ofSeconds(5);
    /** How many consecutive windows must agree. */
    public static final int WINDOWS = 3;
    /** The largest ratio of the highest to the lowest P99 among them. */
    public static final double BOUND = 2.0;

    private SteadyWindows() {}

    /** Whether the last {@link #WINDOWS} of these window P99s (ms, in time order) are steady. */
    public static boolean steady(List<Double> p99Ms) {
        if (p99Ms.size() < WINDOWS) {
            return false;
        }
        double lo = Double.POSITIVE_INFINITY;
        double hi = 0;
        for (double p : p99Ms.subList(p99Ms.size() - WINDOWS, p99Ms.size())) {
            if (Double.isNaN(p) || p <= 0) {
                return false;
            }
            lo = Math.min(lo, p);
            hi = Math.max(hi, p);
        }
        return hi <= BOUND * lo;
    }
}
