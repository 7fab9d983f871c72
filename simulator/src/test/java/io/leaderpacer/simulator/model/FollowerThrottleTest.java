package io.leaderpacer.simulator.model;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The follower throttle's grant, tick by tick (100 ms), worked by hand for one broker that could fetch 100 MB/s,
 * whose fetchers carry 10 MB in one round of responses.
 */
class FollowerThrottleTest {

    private static final double CAPACITY = 100e6;
    private static final double UNIT = 10e6;
    private static final double DT = 0.1;

    /** Grants for ticks 0, 100, ... ms, each tick's catch-up and {@code inSync} bytes per second counted. */
    private static List<Double> grants(FollowerThrottle t, int ticks, double inSync) {
        List<Double> out = new ArrayList<>();
        for (int i = 0; i < ticks; i++) {
            long now = i * 100L;
            double g = t.grants(new double[] {CAPACITY}, new double[] {UNIT}, now, DT)[0];
            out.add(g / 1e6);
            t.record(0, (g + inSync) * DT, now);
        }
        return out;
    }

    @Test
    void bindingRate_letsWholeResponsesThrough_whenTheAverageAllows() {
        FollowerThrottle t = new FollowerThrottle(1);
        t.setClusterDefault(20e6);
        // 0 ms: nothing recorded, 20 MB allowed in the first window: two rounds (the tick can take 10 MB).
        // 100 ms: 10 MB/s, 10 MB left: one round. 200 ms: exactly 20 MB/s is not above the bound: one more round.
        // Then 30 MB over 1 s is 30 MB/s: closed until 1.5 s (30 MB / 1.5 s = 20 MB/s), and from then on one round
        // each time the average falls back to 20 MB/s: every 500 ms.
        List<Double> g = grants(t, 21, 0);
        assertThat(g)
                .containsExactly(
                        100.0, 100.0, 100.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 100.0, 0.0,
                        0.0, 0.0, 0.0, 100.0);
        assertThat(t.bound(0)).isTrue();
    }

    @Test
    void inSyncBytesCount_andARateBelowTheInSyncInflowStallsCatchUp() {
        FollowerThrottle t = new FollowerThrottle(1);
        t.setClusterDefault(4e6);
        // In-sync replicas fetch 5 MB/s, above the 4 MB/s rate: after the first round the quota never opens again.
        List<Double> g = grants(t, 600, 5e6);
        assertThat(g.get(0)).isEqualTo(100.0);
        assertThat(g.subList(1, g.size())).containsOnly(0.0);
    }

    @Test
    void rateAboveTheBrokersCapacity_changesNothing() {
        FollowerThrottle t = new FollowerThrottle(1);
        t.setClusterDefault(1000e6);
        assertThat(grants(t, 600, 5e6)).containsOnly(100.0);
        assertThat(t.bound(0)).isFalse();
    }

    @Test
    void brokerRate_winsOverTheClusterDefault_andItsRemovalRestoresIt() {
        FollowerThrottle t = new FollowerThrottle(2);
        t.setClusterDefault(50e6);
        t.setBrokerRate(1, 10e6);
        assertThat(t.rate(0)).isEqualTo(50e6);
        assertThat(t.rate(1)).isEqualTo(10e6);
        t.setBrokerRate(1, Double.NaN);
        assertThat(t.rate(1)).isEqualTo(50e6);
    }
}
