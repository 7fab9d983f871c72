package io.leaderpacer.simulator.scenario;

import java.util.Locale;

/**
 * Durations as scenario files write them: a number and a unit ({@code 250ms}, {@code 90s},
 * {@code 10m}, {@code 1.5h}). A bare number is refused because nobody can tell its unit.
 */
public final class DurationText {

    private DurationText() {
    }

    /**
     * Milliseconds for a duration text.
     *
     * @throws IllegalArgumentException with a message saying what is accepted
     */
    public static long parseMs(String text) {
        String s = text.trim().toLowerCase(Locale.ROOT);
        long factor;
        String number;
        if (s.endsWith("ms")) {
            factor = 1;
            number = s.substring(0, s.length() - 2);
        } else if (s.endsWith("s")) {
            factor = 1000;
            number = s.substring(0, s.length() - 1);
        } else if (s.endsWith("m")) {
            factor = 60_000;
            number = s.substring(0, s.length() - 1);
        } else if (s.endsWith("h")) {
            factor = 3_600_000;
            number = s.substring(0, s.length() - 1);
        } else {
            throw new IllegalArgumentException("'" + text + "' has no unit; write e.g. 250ms, 90s, 10m or 1.5h");
        }
        double value;
        try {
            value = Double.parseDouble(number.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + text + "' is not a duration; write e.g. 250ms, 90s, 10m or 1.5h");
        }
        if (!(value >= 0) || Double.isInfinite(value) || number.trim().matches(".*[dDfF]$")) {
            throw new IllegalArgumentException("'" + text + "' is not a non-negative duration; write e.g. 90s or 10m");
        }
        return Math.round(value * factor);
    }

    /** A short form for reports: {@code 1h05m}, {@code 12m30s}, {@code 45s}, {@code 250ms}. */
    public static String format(long ms) {
        if (ms < 1000) {
            return ms + "ms";
        }
        long s = Math.round(ms / 1000.0);
        long h = s / 3600;
        long m = (s % 3600) / 60;
        long sec = s % 60;
        if (h > 0) {
            return String.format(Locale.ROOT, "%dh%02dm%02ds", h, m, sec);
        }
        if (m > 0) {
            return String.format(Locale.ROOT, "%dm%02ds", m, sec);
        }
        return sec + "s";
    }
}
