package io.leaderpacer.simulator.model;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import org.assertj.core.data.Offset;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The follower throttle over two minutes of 100 ms ticks, for any rate, capacity, response size and in-sync inflow:
 * it never grants more than the broker could fetch, and its quota holds catch-up plus in-sync bytes to the rate on
 * average, as Kafka's does.
 */
class FollowerThrottleProperties {

    private static final double DT = 0.1;

    /** Catch-up bytes per second of each tick; every tick fetches what it is granted and counts the in-sync bytes too. */
    private static double[] run(double rate, double capacity, double unit, double inSync) {
        FollowerThrottle t = new FollowerThrottle(1);
        t.setClusterDefault(rate);
        double[] out = new double[1200];
        for (int i = 0; i < out.length; i++) {
            long now = i * 100L;
            out[i] = t.grants(new double[] {capacity}, new double[] {unit}, now, DT)[0];
            t.record(0, (out[i] + inSync) * DT, now);
        }
        return out;
    }

    @Property(tries = 200)
    void grant_neverAboveCapacity_andOnAverageTheRateLessTheInSyncInflow(
            @ForAll @DoubleRange(min = 1e6, max = 300e6) double rate,
            @ForAll @DoubleRange(min = 1e6, max = 1000e6) double capacity,
            @ForAll @DoubleRange(min = 0.1e6, max = 20e6) double unit,
            @ForAll @DoubleRange(min = 0, max = 1) double inSyncShare) {
        double inSync = inSyncShare * rate;
        double[] g = run(rate, capacity, unit, inSync);
        double sum = 0;
        for (int i = 0; i < g.length; i++) {
            assertThat(g[i]).isBetween(0.0, capacity);
            if (i >= 600) {
                sum += g[i] * DT;
            }
        }
        double average = sum / 60;
        // Over the second minute: what the quota leaves for catch-up, within 5 % of the rate for the edges of the
        // window, one tick at full capacity in the minute, and one round of responses per window span (11 s): a
        // fetch that finds the quota open carries whole responses, so the window may hold one round beyond the
        // rate, and when a round is larger than the rate allows in a span that is what the average converges to.
        double expected = Math.min(capacity, rate - inSync);
        double spanSeconds = FollowerQuota.defaultWindows() * FollowerQuota.defaultWindowMs() / 1000.0;
        double tolerance = 0.05 * rate + unit / spanSeconds + capacity * DT / 60;
        assertThat(average).isCloseTo(expected, Offset.offset(tolerance));
    }

    @Property(tries = 100)
    void rateTwiceWhatTheBrokerFetches_neverHoldsCatchUpBack(
            @ForAll @DoubleRange(min = 1e6, max = 1000e6) double capacity,
            @ForAll @DoubleRange(min = 0.1e6, max = 20e6) double unit,
            @ForAll @DoubleRange(min = 0, max = 100e6) double inSync,
            @ForAll @DoubleRange(min = 2, max = 100) double factor) {
        for (double g : run(factor * (capacity + inSync), capacity, unit, inSync)) {
            assertThat(g).isEqualTo(capacity);
        }
    }
}
