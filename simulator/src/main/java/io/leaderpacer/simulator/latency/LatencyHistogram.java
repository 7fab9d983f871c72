package io.leaderpacer.simulator.latency;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

import java.util.Arrays;
import java.util.random.RandomGenerator;

/**
 * The produce latency of many requests, as two request-weighted HdrHistograms:
 *
 * <ul>
 *   <li><b>spread</b>: partition <em>mean</em> latencies. A request to a partition with mean
 *       {@code m} takes {@code m * X}, X log-normal with mean 1 and spread {@code sigma}
 *       (queueing noise). The request-level distribution is the mixture, computed exactly;
 *   <li><b>exact</b>: latencies that are waits, not noise (a partition without a leader, an
 *       ISR follower that has stopped fetching): recorded as they are.
 * </ul>
 *
 * <p>Why not simulate requests: a million partitions at a few requests a second for hours is
 * billions of requests. Recording one weighted mean per partition class per second keeps the
 * shape of the distribution (who is slow and for how many requests) at a tiny fraction of the cost.
 * Counts are thousandths of requests, so fractional rates add up exactly.
 */
public final class LatencyHistogram {

    /** Longest latency kept: one hour, in microseconds. Longer waits are clamped (they are time-outs anyway). */
    static final long MAX_MICROS = 3_600_000_000L;
    /** Two significant digits: 1% value resolution, a few KB per histogram. */
    private static final int DIGITS = 2;

    private final Histogram spread = new Histogram(MAX_MICROS, DIGITS);
    private final Histogram exact = new Histogram(MAX_MICROS, DIGITS);

    /** Adds requests to a partition (class) whose mean latency is {@code meanMs}. */
    public void recordMean(double meanMs, long milliRequests) {
        if (milliRequests > 0) {
            spread.recordValueWithCount(micros(meanMs), milliRequests);
        }
    }

    /** Adds requests that all wait exactly {@code latencyMs}. */
    public void recordExact(double latencyMs, long milliRequests) {
        if (milliRequests > 0) {
            exact.recordValueWithCount(micros(latencyMs), milliRequests);
        }
    }

    public void add(LatencyHistogram other) {
        spread.add(other.spread);
        exact.add(other.exact);
    }

    public void reset() {
        spread.reset();
        exact.reset();
    }

    /** Requests recorded (not thousandths). */
    public double requests() {
        return (spread.getTotalCount() + exact.getTotalCount()) / 1000.0;
    }

    public boolean isEmpty() {
        return spread.getTotalCount() + exact.getTotalCount() == 0;
    }

    /**
     * The latency (ms) below which the fraction {@code q} of requests fall, or NaN when empty.
     * Solved by bisection on log-latency over the mixture's distribution function.
     */
    public double quantileMs(double q, double sigma) {
        long total = spread.getTotalCount() + exact.getTotalCount();
        if (total == 0) {
            return Double.NaN;
        }
        double[][] s = points(spread);
        double[][] e = points(exact);
        double lo = Double.MAX_VALUE;
        double hi = -Double.MAX_VALUE;
        for (double m : s[0]) {
            lo = Math.min(lo, StrictMath.log(m) - 9 * sigma);
            hi = Math.max(hi, StrictMath.log(m) + 9 * sigma);
        }
        for (double v : e[0]) {
            lo = Math.min(lo, StrictMath.log(v) - 1e-9);
            hi = Math.max(hi, StrictMath.log(v) + 1e-9);
        }
        double mu = -sigma * sigma / 2;
        double target = q * total;
        // The logs of the means, once: the bisection evaluates the distribution function 80 times.
        double[] logMeans = new double[s[0].length];
        for (int i = 0; i < logMeans.length; i++) {
            logMeans[i] = StrictMath.log(s[0][i]);
        }
        for (int i = 0; i < 80; i++) {
            double mid = (lo + hi) / 2;
            if (cumulative(mid, s, logMeans, e, mu, sigma) < target) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return StrictMath.exp((lo + hi) / 2);
    }

    /**
     * The {@code q} quantile of {@code n} requests drawn from the mixture, as a client that times {@code n} sends
     * reads it (the {@code ceil(q n)}-th fastest), or NaN when empty. Why beside {@link #quantileMs}: a P99 of a
     * hundred sends is their second slowest, and whether a 2 % tail shows in it is a draw: the agent's canary reads
     * such a sample at every look, not the population.
     */
    public double sampledQuantileMs(double q, double sigma, int n, RandomGenerator random) {
        long total = spread.getTotalCount() + exact.getTotalCount();
        if (total == 0 || n < 1) {
            return Double.NaN;
        }
        double[][] s = points(spread);
        double[][] e = points(exact);
        double[] cumulative = new double[s[0].length + e[0].length];
        double sum = 0;
        for (int i = 0; i < s[0].length; i++) {
            sum += s[1][i];
            cumulative[i] = sum;
        }
        for (int i = 0; i < e[0].length; i++) {
            sum += e[1][i];
            cumulative[s[0].length + i] = sum;
        }
        double mu = -sigma * sigma / 2;
        double[] draws = new double[n];
        for (int k = 0; k < n; k++) {
            int i = Arrays.binarySearch(cumulative, random.nextDouble() * sum);
            i = i >= 0 ? i : -i - 1;
            draws[k] = i < s[0].length
                    ? s[0][i] * StrictMath.exp(mu + sigma * random.nextGaussian())
                    : e[0][i - s[0].length];
        }
        Arrays.sort(draws);
        return draws[(int) Math.ceil(q * n) - 1];
    }

    /** Expected number of requests slower than {@code timeoutMs} (a request time-out). */
    public double requestsAbove(double timeoutMs, double sigma) {
        double mu = -sigma * sigma / 2;
        double[][] s = points(spread);
        double[][] e = points(exact);
        double logT = StrictMath.log(timeoutMs);
        double above = 0;
        for (int i = 0; i < s[0].length; i++) {
            above += s[1][i] * StandardNormal.upperTail((logT - StrictMath.log(s[0][i]) - mu) / sigma);
        }
        for (int i = 0; i < e[0].length; i++) {
            if (e[0][i] > timeoutMs) {
                above += e[1][i];
            }
        }
        return above / 1000.0;
    }

    /** Requests-weighted mean latency (ms), or NaN when empty. */
    public double meanMs() {
        long total = spread.getTotalCount() + exact.getTotalCount();
        if (total == 0) {
            return Double.NaN;
        }
        // The log-normal noise has mean 1, so the spread part's mean is the mean of the means.
        return (spread.getMean() * spread.getTotalCount() + exact.getMean() * exact.getTotalCount()) / total / 1000.0;
    }

    private static double cumulative(
            double logX, double[][] s, double[] logMeans, double[][] e, double mu, double sigma) {
        double c = 0;
        for (int i = 0; i < logMeans.length; i++) {
            c += s[1][i] * StandardNormal.cdf((logX - logMeans[i] - mu) / sigma);
        }
        double x = StrictMath.exp(logX);
        for (int i = 0; i < e[0].length; i++) {
            if (e[0][i] <= x) {
                c += e[1][i];
            }
        }
        return c;
    }

    /** Distinct recorded values (ms, at the middle of their bucket) and their counts. */
    private static double[][] points(Histogram h) {
        int n = 0;
        for (HistogramIterationValue ignored : h.recordedValues()) {
            n++;
        }
        double[] values = new double[n];
        double[] counts = new double[n];
        int i = 0;
        for (HistogramIterationValue v : h.recordedValues()) {
            values[i] = Math.max(1, h.medianEquivalentValue(v.getValueIteratedTo())) / 1000.0;
            counts[i] = v.getCountAddedInThisIterationStep();
            i++;
        }
        return new double[][] {values, counts};
    }

    private static long micros(double ms) {
        long us = Math.round(ms * 1000.0);
        return Math.max(1, Math.min(MAX_MICROS, us));
    }
}
