package io.leaderpacer.loadtest.result;

import io.leaderpacer.loadtest.load.View;
import org.HdrHistogram.Histogram;

import java.util.List;

/**
 * KIP-1358's steady reference: the P99 of every send of every round's steady phase, pooled as sends (not a median of
 * window P99s), all views. KIP-1358's acceptance test divides the P99 over the ten minutes from unfencing by "the
 * prior 1-hour steady-state P99"; a run's steady phases together are minutes of the same cluster's steady state
 * (the state before any policy acts), the longest steady period a run has.
 *
 * <p>Why beside {@link SteadyReference}: that one is the median of 5-s window P99s, which leaves out a stall that
 * fills a few windows; KIP-1358's counts it, as an hour of production does. Both are reported, each named.
 *
 * @param p99Ms   the pooled sends' P99, milliseconds ({@code NaN} when the run recorded none)
 * @param sends   how many sends it pools
 */
public record KipReference(double p99Ms, long sends) {

    /** KIP-1358's window: the ten minutes from unfencing. */
    public static final long WINDOW_MS = 600_000;

    public static KipReference of(List<RoundResult> rounds) {
        Histogram all = new Histogram(3);
        for (RoundResult r : rounds) {
            all.add(r.latency().steadySends());
        }
        return new KipReference(
                all.getTotalCount() == 0 ? Double.NaN : all.getValueAtPercentile(99.0) / 1000.0, all.getTotalCount());
    }

    /** Whether the round measured KIP-1358's ten minutes from unfencing. */
    public static boolean kipWindow(RoundResult r) {
        return r.moments().kipWindowMs() >= WINDOW_MS && r.latency().kipWindow().containsKey(View.ALL);
    }

    /**
     * A round's P99 over KIP-1358's window (all sends made in the ten minutes from unfencing) over this reference;
     * {@code NaN} when the round did not measure that window (run without {@code --kip-window}, or its strict window
     * outlasted ten minutes).
     */
    public double ratio(RoundResult r) {
        if (!kipWindow(r)) {
            return Double.NaN;
        }
        return r.latency().kipWindow().get(View.ALL).p99Ms() / p99Ms;
    }
}
