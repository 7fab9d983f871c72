package io.leaderpacer.simulator;

import io.leaderpacer.simulator.run.ProgressListener;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * Progress for standard error that is not a terminal (a pipe, a file, a CI log): whole lines, at most one every
 * {@link #PERIOD_MS}, because a carriage-return bar written into a file becomes dozens of frames joined on one line.
 *
 * <p>Reads a wall clock only to space its lines out; it never touches the simulation's logical time.
 */
final class ProgressLines implements ProgressListener {

    /** The least time between two lines. */
    static final long PERIOD_MS = 10_000;

    private final PrintWriter err;
    private final LongSupplier clockMs;
    private long lastLineAtMs;

    ProgressLines(PrintWriter err, LongSupplier clockMs) {
        this.err = err;
        this.clockMs = clockMs;
        this.lastLineAtMs = clockMs.getAsLong();
    }

    @Override
    public void progress(String label, double fraction) {
        long now = clockMs.getAsLong();
        if (now - lastLineAtMs < PERIOD_MS) {
            return;
        }
        lastLineAtMs = now;
        err.println(String.format(Locale.ROOT, "progress %3d%% %s", (int) Math.floor(fraction * 100), label));
        err.flush();
    }
}
