package io.leaderpacer.simulator.run;

/**
 * The ISR re-entry timeline of a restarted broker's preferred partitions, as the load test reports it.
 *
 * @param preferred preferred partitions of the broker
 * @param timesMs   re-entry times, ms after the unfencing, ascending; fewer than {@code preferred} if some never did
 */
public record Reentries(int preferred, int[] timesMs) {

    public Reentries {
        timesMs = timesMs.clone();
    }

    /** No restart, nothing to show. */
    public static Reentries none() {
        return new Reentries(0, new int[0]);
    }

    /** The q-quantile by the load test's rank rule (ceil(q n) - 1), in seconds; NaN when none re-entered. */
    public double quantileSeconds(double q) {
        if (timesMs.length == 0) {
            return Double.NaN;
        }
        int i = (int) Math.ceil(q * timesMs.length) - 1;
        return timesMs[Math.max(0, Math.min(timesMs.length - 1, i))] / 1000.0;
    }

    public double firstSeconds() {
        return timesMs.length == 0 ? Double.NaN : timesMs[0] / 1000.0;
    }

    /** The last re-entry: the physical limit of the recovery, when every preferred partition re-entered. */
    public double lastSeconds() {
        return timesMs.length == 0 || timesMs.length < preferred ? Double.NaN : timesMs[timesMs.length - 1] / 1000.0;
    }
}
