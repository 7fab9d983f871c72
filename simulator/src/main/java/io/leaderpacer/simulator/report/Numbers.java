package io.leaderpacer.simulator.report;

import java.util.Locale;

/** Number formatting that is the same on every machine and locale (outputs must be byte-identical). */
final class Numbers {

    private Numbers() {}

    static String fixed(double v, int decimals) {
        if (Double.isNaN(v)) {
            return "";
        }
        if (Double.isInfinite(v)) {
            return v > 0 ? "inf" : "-inf";
        }
        return String.format(Locale.ROOT, "%." + decimals + "f", v);
    }

    /** Seconds as a duration, or "never" for a negative value. */
    static String duration(long ms) {
        if (ms < 0) {
            return "never";
        }
        long s = Math.round(ms / 1000.0);
        return String.format(Locale.ROOT, "%dm%02ds", s / 60, s % 60);
    }

    static String ratio(double v) {
        return Double.isNaN(v) ? "-" : fixed(v, 2) + "x";
    }
}
