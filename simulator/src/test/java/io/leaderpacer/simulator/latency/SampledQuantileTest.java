package io.leaderpacer.simulator.latency;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The P99 of a hundred sends against the population's. Worked by hand: with a share {@code p} of sends at 1,000 ms and
 * the rest at 10 ms, a hundred sends' P99 (their second slowest) is slow when two or more of them are, with
 * probability {@code 1 - (1-p)^100 - 100 p (1-p)^99}: 0.264 at p = 1 %, 0.597 at p = 2 %. The population's P99 is
 * slow at every look from p = 1 % on (exactly at the boundary at 1 %, here: over it).
 */
class SampledQuantileTest {

    private static final int LOOKS = 4_000;

    private static LatencyHistogram tail(long slowMilli) {
        LatencyHistogram h = new LatencyHistogram();
        h.recordExact(10, 100_000 - slowMilli);
        h.recordExact(1000, slowMilli);
        return h;
    }

    private static double slowShare(LatencyHistogram h) {
        SplittableRandom random = new SplittableRandom(41);
        int slow = 0;
        for (int i = 0; i < LOOKS; i++) {
            if (h.sampledQuantileMs(0.99, 0.1, 100, random) > 500) {
                slow++;
            }
        }
        return slow / (double) LOOKS;
    }

    @Test
    void twoPercentTail_populationAlwaysSlow_aHundredSendsSlowInSixLooksOfTen() {
        LatencyHistogram h = tail(2_000);
        assertThat(h.quantileMs(0.99, 0.1)).isGreaterThan(500);
        // Binomial: 0.597, standard deviation of the share over 4,000 looks 0.008.
        assertThat(slowShare(h)).isCloseTo(0.597, within(0.03));
    }

    @Test
    void onePercentTail_aHundredSendsSlowInAQuarterOfTheLooks() {
        assertThat(slowShare(tail(1_000))).isCloseTo(0.264, within(0.03));
    }

    @Test
    void noTail_aHundredSendsReadTheBody() {
        LatencyHistogram h = tail(0);
        assertThat(h.sampledQuantileMs(0.99, 0.1, 100, new SplittableRandom(1))).isLessThan(20);
    }

    @Test
    void empty_isNaN() {
        assertThat(new LatencyHistogram().sampledQuantileMs(0.99, 0.1, 100, new SplittableRandom(1)))
                .isNaN();
    }
}
