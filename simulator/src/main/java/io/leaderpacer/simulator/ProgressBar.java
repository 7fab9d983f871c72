package io.leaderpacer.simulator;

import io.leaderpacer.simulator.run.ProgressListener;

import java.io.PrintWriter;
import java.util.Locale;

/**
 * A one-line progress bar on standard error for long simulations, redrawn only when the percentage
 * changes so that it costs nothing and floods no log.
 */
final class ProgressBar implements ProgressListener {

    private static final int WIDTH = 30;
    private final PrintWriter err;
    private String lastLabel = "";
    private int lastPercent = -1;

    ProgressBar(PrintWriter err) {
        this.err = err;
    }

    @Override
    public void progress(String label, double fraction) {
        int percent = (int) Math.floor(fraction * 100);
        if (percent == lastPercent && label.equals(lastLabel)) {
            return;
        }
        if (!label.equals(lastLabel) && !lastLabel.isEmpty() && lastPercent < 100) {
            err.println();
        }
        lastLabel = label;
        lastPercent = percent;
        int filled = percent * WIDTH / 100;
        err.print(String.format(
                Locale.ROOT, "\r[%s%s] %3d%% %s", "#".repeat(filled), ".".repeat(WIDTH - filled), percent, label));
        if (percent >= 100) {
            err.println();
        }
        err.flush();
    }
}
