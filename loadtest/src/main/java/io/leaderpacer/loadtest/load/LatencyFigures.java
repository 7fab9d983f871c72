package io.leaderpacer.loadtest.load;

import org.HdrHistogram.Histogram;

/**
 * The percentiles of one set of sends, in milliseconds ({@code NaN} when there were none).
 *
 * @param count sends
 */
public record LatencyFigures(long count, double p50Ms, double p99Ms, double p999Ms, double maxMs) {

    /** From a histogram of microseconds. */
    public static LatencyFigures of(Histogram micros) {
        long n = micros.getTotalCount();
        if (n == 0) {
            return new LatencyFigures(0, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
        }
        return new LatencyFigures(
                n,
                micros.getValueAtPercentile(50) / 1000.0,
                micros.getValueAtPercentile(99) / 1000.0,
                micros.getValueAtPercentile(99.9) / 1000.0,
                micros.getMaxValue() / 1000.0);
    }
}
