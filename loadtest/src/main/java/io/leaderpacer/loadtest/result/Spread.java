package io.leaderpacer.loadtest.result;

import java.util.Arrays;
import java.util.Locale;

/**
 * The median of a few measurements with their range: how every figure of a load test is reported, since a handful of
 * rounds on a shared machine is not enough for anything finer.
 *
 * @param median {@code NaN} when there are no values
 * @param min    the smallest
 * @param max    the largest
 * @param n      how many values
 */
public record Spread(double median, double min, double max, int n) {

    /** Of these values; {@code NaN}s are left out. */
    public static Spread of(double... values) {
        double[] v =
                Arrays.stream(values).filter(d -> !Double.isNaN(d)).sorted().toArray();
        if (v.length == 0) {
            return new Spread(Double.NaN, Double.NaN, Double.NaN, 0);
        }
        double median = v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
        return new Spread(median, v[0], v[v.length - 1], v.length);
    }

    /** e.g. "1.23 (1.10–1.40)", or "1.23" for one value, or "n/a". */
    public String text(String format) {
        if (n == 0) {
            return "n/a";
        }
        String m = String.format(Locale.ROOT, format, median);
        return n == 1
                ? m
                : m + " (" + String.format(Locale.ROOT, format, min) + "–" + String.format(Locale.ROOT, format, max)
                        + ")";
    }
}
