package io.leaderpacer.report.text;

import io.leaderpacer.engine.config.ConfigException;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Durations as scenario files and command lines write them: numbers with units ({@code 250ms}, {@code 90s},
 * {@code 10m}, {@code 1.5h}, {@code 86m30s}). A bare number is refused because nobody can tell
 * its unit.
 */
public final class DurationText {

    private DurationText() {}

    /**
     * Milliseconds for a duration text.
     *
     * @throws IllegalArgumentException with a message saying what is accepted
     */
    public static long parseMs(String text) {
        String s = text.trim().toLowerCase(Locale.ROOT);
        Matcher m = PART.matcher(s);
        double ms = 0;
        int at = 0;
        while (at < s.length() && m.find(at) && m.start() == at) {
            double value = Double.parseDouble(m.group(1));
            ms += value * unitMs(m.group(2));
            at = m.end();
        }
        if (s.isEmpty() || at != s.length()) {
            throw new IllegalArgumentException(
                    "'" + ConfigException.printable(text) + "' is not a duration; write a number and a unit "
                            + "(ms, s, m, h), e.g. 250ms, 90s, 10m, 1.5h or 86m30s");
        }
        if (ms > MAX_MS) {
            throw new IllegalArgumentException("'" + ConfigException.printable(text)
                    + "' is too long: a duration is at most " + format(MAX_MS) + " (366 days)");
        }
        return Math.round(ms);
    }

    /**
     * Longest duration accepted: far beyond any recovery worth simulating, and far below where milliseconds would
     * overflow (a huge value must be an error, not a saturated number and a run that never ends).
     */
    public static final long MAX_MS = 366L * 24 * 3_600_000;

    /** One number and its unit; {@code ms} is tried before {@code m}. */
    private static final Pattern PART = Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|s|m|h)");

    private static long unitMs(String unit) {
        switch (unit) {
            case "ms":
                return 1;
            case "s":
                return 1000;
            case "m":
                return 60_000;
            default:
                return 3_600_000;
        }
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
