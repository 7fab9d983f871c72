package io.leaderpacer.loadtest.result;

import io.leaderpacer.loadtest.load.LatencyFigures;
import io.leaderpacer.loadtest.load.View;
import io.leaderpacer.loadtest.steady.SteadyWindow;
import io.leaderpacer.loadtest.steady.SteadyWindows;
import io.leaderpacer.loadtest.steady.WarmUpOutcome;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The steady P99 every round's window is compared with, pooled over every round of a run: per view, the median of
 * the P99s of all the {@linkplain SteadyWindows#WINDOW 5 s windows} of every round's steady phase.
 *
 * <p>Why pooled, and why a median of windows: the steady state is the cluster's, not a policy's (the policy acts
 * only after the restart), so every round measures the same thing. A round's own steady P99 once read 584.7 ms
 * against another's 65.7 ms because a 3 s stall fell into its steady phase; divided by its own reference, that
 * round's window looked 5× better than it was and the run's verdict inverted. A median over all windows ignores a
 * stall that fills a few of them, and a round whose own steady P99 is far off ({@value #FLAG_FACTOR}× either way) is
 * flagged. A round recorded without windows contributes its whole steady phase's P99 as one value.
 *
 * @param p99Ms   per view, the reference in milliseconds ({@code NaN} when no round had such sends)
 * @param windows per view, the window P99s pooled (their spread shows how steady the steady state was)
 */
public record SteadyReference(Map<View, Double> p99Ms, Map<View, Spread> windows) {

    /** A round whose own steady P99 (all sends) is this far from the reference, either way, is flagged. */
    public static final double FLAG_FACTOR = 3.0;

    public SteadyReference {
        p99Ms = Map.copyOf(p99Ms);
        windows = Map.copyOf(windows);
    }

    public static SteadyReference of(List<RoundResult> rounds) {
        Map<View, Double> ref = new EnumMap<>(View.class);
        Map<View, Spread> spreads = new EnumMap<>(View.class);
        for (View v : View.values()) {
            List<Double> values = new ArrayList<>();
            for (RoundResult r : rounds) {
                List<Double> own = new ArrayList<>();
                for (SteadyWindow w : r.latency().steadyWindows()) {
                    if (w.view() == v && w.count() > 0 && !Double.isNaN(w.p99Ms())) {
                        own.add(w.p99Ms());
                    }
                }
                if (own.isEmpty()) {
                    LatencyFigures whole = r.latency().steady().get(v);
                    if (whole != null && whole.count() > 0) {
                        own.add(whole.p99Ms());
                    }
                }
                values.addAll(own);
            }
            Spread s =
                    Spread.of(values.stream().mapToDouble(Double::doubleValue).toArray());
            ref.put(v, s.median());
            spreads.put(v, s);
        }
        return new SteadyReference(ref, spreads);
    }

    /** The reference for one view, ms ({@code NaN} when unknown). */
    public double p99Ms(View view) {
        return p99Ms.getOrDefault(view, Double.NaN);
    }

    /** A round's own steady P99 (all sends) over the reference. */
    public double offBy(RoundResult round) {
        LatencyFigures own = round.latency().steady().get(View.ALL);
        return own == null ? Double.NaN : own.p99Ms() / p99Ms(View.ALL);
    }

    /** Whether a round's own steady phase was far from the run's steady state ({@value #FLAG_FACTOR}× either way). */
    public boolean flagged(RoundResult round) {
        double off = offBy(round);
        return !Double.isNaN(off) && (off > FLAG_FACTOR || off < 1 / FLAG_FACTOR);
    }

    /**
     * How far the reference (all sends) is above the P99 the warm-up ended steady at, when it is more than
     * {@value #FLAG_FACTOR}× above it: then every round's steady phase was disturbed and no ratio of the run stands.
     * Why against the warm-up: the per-round flag compares a round with the pooled reference, which cannot see a
     * disturbance that every round shares (evidence run 12: a reference of 8.2 s after a warm-up steady at 249 ms,
     * and a P99 criterion that read PASS).
     */
    public OptionalDouble disturbedBy(Optional<WarmUpOutcome> warmUp) {
        double before = warmUpSteadyP99Ms(warmUp);
        if (!(before > 0)) {
            return OptionalDouble.empty();
        }
        double factor = p99Ms(View.ALL) / before;
        return factor > FLAG_FACTOR ? OptionalDouble.of(factor) : OptionalDouble.empty();
    }

    /** The P99 the warm-up ended steady at: the median of the windows it was judged steady on; NaN if it was not. */
    static double warmUpSteadyP99Ms(Optional<WarmUpOutcome> warmUp) {
        return warmUp.filter(WarmUpOutcome::steady)
                .map(w -> Spread.of(w.lastWindowP99s().stream()
                                .mapToDouble(Double::doubleValue)
                                .toArray())
                        .median())
                .orElse(Double.NaN);
    }

    /** One sentence: the reference and how it was taken. */
    public String describe() {
        Spread all = windows.getOrDefault(View.ALL, Spread.of());
        return String.format(
                Locale.ROOT,
                "Steady reference: P99 %.1f ms for all sends (protected partitions %.1f ms),"
                        + " the median of %d window P99s of %d s over every round's steady phase (they ranged %.1f–%.1f ms);"
                        + " every ratio divides by it.",
                p99Ms(View.ALL),
                p99Ms(View.PROTECTED),
                all.n(),
                SteadyWindows.WINDOW.toSeconds(),
                all.min(),
                all.max());
    }
}
