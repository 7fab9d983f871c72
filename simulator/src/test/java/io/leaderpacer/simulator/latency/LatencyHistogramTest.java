package io.leaderpacer.simulator.latency;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class LatencyHistogramTest {

    private static final double SIGMA = 0.6;

    @Test
    void onePartition_p99IsItsMeanTimesTheLogNormalQuantile() {
        LatencyHistogram h = new LatencyHistogram();
        h.recordMean(10.0, 1_000_000);
        // X = exp(mu + sigma Z), mu = -sigma^2/2; P99 of X = exp(-0.18 + 0.6 * 2.3263) = 3.375...
        double expected = 10.0 * Math.exp(-SIGMA * SIGMA / 2 + SIGMA * 2.326348);
        assertThat(h.quantileMs(0.99, SIGMA)).isCloseTo(expected, within(expected * 0.01));
        assertThat(h.meanMs()).isCloseTo(10.0, within(0.1));
        assertThat(h.requests()).isEqualTo(1000.0);
    }

    @Test
    void twoPercentOfRequestsTenTimesSlower_moveP99ByAboutTenfold() {
        LatencyHistogram h = new LatencyHistogram();
        h.recordMean(10.0, 98_000);
        h.recordMean(100.0, 2_000);
        double alone = 10.0 * Math.exp(-0.18 + SIGMA * 2.326348);
        // Half of the slow 2% lie above P99 of the mixture: it sits near the slow group's median,
        // 100 x exp(-sigma^2/2) = 83.5 ms, about 2.5x the fast group's own P99.
        assertThat(h.quantileMs(0.99, SIGMA)).isBetween(78.0, 88.0);
        assertThat(h.quantileMs(0.99, SIGMA) / alone).isGreaterThan(2.3);
    }

    @Test
    void exactWaits_areNotSpread() {
        LatencyHistogram h = new LatencyHistogram();
        h.recordExact(40_000, 1000);
        h.recordExact(5, 99_000);
        assertThat(h.requestsAbove(30_000, SIGMA)).isCloseTo(1.0, within(1e-9));
        assertThat(h.quantileMs(0.995, SIGMA)).isCloseTo(40_000, within(400.0));
        assertThat(h.quantileMs(0.98, SIGMA)).isCloseTo(5, within(0.1));
    }

    @Test
    void fastRequests_neverTimeOut_butSecondsLongMeansDo() {
        LatencyHistogram fast = new LatencyHistogram();
        fast.recordMean(20, 1_000_000_000L);
        assertThat(fast.requestsAbove(30_000, SIGMA)).isLessThan(1e-6);
        LatencyHistogram slow = new LatencyHistogram();
        slow.recordMean(20_000, 1_000_000);
        assertThat(slow.requestsAbove(30_000, SIGMA)).isGreaterThan(100).isLessThan(500);
    }

    @Test
    void empty_hasNoQuantile() {
        assertThat(new LatencyHistogram().quantileMs(0.99, SIGMA)).isNaN();
    }

    @Property(tries = 50)
    void quantiles_areOrderedAndWithinRecordedRange(
            @ForAll @DoubleRange(min = 0.1, max = 5000) double a,
            @ForAll @DoubleRange(min = 0.1, max = 5000) double b) {
        LatencyHistogram h = new LatencyHistogram();
        h.recordMean(a, 5000);
        h.recordMean(b, 3000);
        double p50 = h.quantileMs(0.5, SIGMA);
        double p99 = h.quantileMs(0.99, SIGMA);
        assertThat(p50).isLessThanOrEqualTo(p99);
        assertThat(p99).isLessThan(Math.max(a, b) * 10).isGreaterThan(Math.min(a, b) * 0.1);
    }

    @Test
    void erfc_matchesKnownValues() {
        assertThat(StandardNormal.upperTail(0)).isCloseTo(0.5, within(1e-7));
        assertThat(StandardNormal.upperTail(2.326348)).isCloseTo(0.01, within(1e-6));
        // Far tail keeps relative accuracy: P(Z > 6) = 9.866e-10.
        assertThat(StandardNormal.upperTail(6) / 9.8659e-10).isCloseTo(1.0, within(1e-3));
    }
}
