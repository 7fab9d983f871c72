package io.leaderpacer.loadtest.steady;

import io.leaderpacer.loadtest.load.ClassifiedLoad;
import io.leaderpacer.loadtest.load.LatencyBook;
import io.leaderpacer.loadtest.load.Phase;
import io.leaderpacer.loadtest.load.View;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * Runs the load until the cluster is steady: at least the minimum, then window by window until the last
 * {@link SteadyWindows#WINDOWS} agree, at most the limit. What it measured is thrown away but for its outcome.
 */
public final class WarmUp {

    private WarmUp() {}

    /**
     * Warms up with the load already running.
     *
     * @param clockMs a monotonic clock in milliseconds
     * @param printer gets one line per window and the outcome
     */
    public static WarmUpOutcome run(
            WarmUpSettings settings, ClassifiedLoad load, LongSupplier clockMs, Consumer<String> printer)
            throws InterruptedException {
        LatencyBook book = new LatencyBook();
        load.recordInto(book, Phase.WARMUP);
        long start = clockMs.getAsLong();
        List<Double> p99s = new ArrayList<>();
        try {
            while (true) {
                Thread.sleep(SteadyWindows.WINDOW.toMillis());
                double p99 = book.closeWindow().get(View.ALL).p99Ms();
                p99s.add(p99);
                long elapsed = clockMs.getAsLong() - start;
                printer.accept(String.format(Locale.ROOT, "warm-up +%3d s  window P99 %.0f ms", elapsed / 1000, p99));
                boolean pastMinimum = elapsed >= settings.minimum().toMillis();
                if (pastMinimum && SteadyWindows.steady(p99s)) {
                    return done(new WarmUpOutcome(elapsed, true, p99s), printer);
                }
                if (elapsed >= settings.limit().toMillis()) {
                    return done(new WarmUpOutcome(elapsed, false, p99s), printer);
                }
            }
        } finally {
            load.stopRecording();
        }
    }

    private static WarmUpOutcome done(WarmUpOutcome outcome, Consumer<String> printer) {
        printer.accept(outcome.describe());
        return outcome;
    }
}
