package io.leaderpacer.loadtest.result;

import java.util.Locale;

/** Latencies and times as a reader takes them in: milliseconds below a second, seconds with one decimal above. */
final class Durations {

    private Durations() {}

    /** e.g. "70 ms", "3.3 s", "n/a". */
    static String text(double ms) {
        if (Double.isNaN(ms)) {
            return "n/a";
        }
        if (ms < 1000) {
            return String.format(Locale.ROOT, "%.0f ms", ms);
        }
        return String.format(Locale.ROOT, "%.1f s", ms / 1000.0);
    }
}
