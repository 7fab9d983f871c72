package io.leaderpacer.loadtest.steady;

import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * How a warm-up ended.
 *
 * @param elapsedMs  how long it took
 * @param steady     whether it ended steady (false: it reached its limit)
 * @param windowP99s every window's P99 of all sends, ms, in time order
 */
public record WarmUpOutcome(long elapsedMs, boolean steady, List<Double> windowP99s) {

    public WarmUpOutcome {
        windowP99s = List.copyOf(windowP99s);
    }

    /** The P99s of its last {@link SteadyWindows#WINDOWS} windows of 5 s, those it was judged steady on. */
    public List<Double> lastWindowP99s() {
        return windowP99s.subList(Math.max(0, windowP99s.size() - SteadyWindows.WINDOWS), windowP99s.size());
    }

    /** One line for the console and the report. */
    public String describe() {
        String last = lastWindowP99s().stream()
                .map(p -> String.format(Locale.ROOT, "%.0f", p))
                .collect(Collectors.joining(", "));
        return steady
                ? String.format(
                        Locale.ROOT,
                        "warm-up steady after %.0f s (last %d window P99s within %.0fx: %s ms)",
                        elapsedMs / 1000.0,
                        SteadyWindows.WINDOWS,
                        SteadyWindows.BOUND,
                        last)
                : String.format(
                        Locale.ROOT,
                        "warm-up NOT steady at its limit of %.0f s (last window P99s: %s ms):"
                                + " measuring anyway; the pooled steady reference and the per-round flags show how much it mattered",
                        elapsedMs / 1000.0,
                        last);
    }
}
