package io.leaderpacer.simulator.run;

import io.leaderpacer.simulator.scenario.Scenario;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Kafka's follower throttle on a restarted broker, end to end, on {@link RestartedFollowerCluster}. Broker 0 never
 * leads again (a gate with threshold 0 and no escape), so it follows every partition. A cluster-default throttle lists
 * every replica; the first round of responses the empty quota lets through (about 0.5 MB for each lagging partition)
 * brings the live partitions back.
 */
class FollowerThrottleScenarioTest {

    private static PolicyOutcome run(double throttleMBps) {
        Scenario s = RestartedFollowerCluster.scenario("", RestartedFollowerCluster.gatedOnly(throttleMBps));
        return new ScenarioRunner(ProgressListener.NONE).run(s, s.seed()).outcome("gated");
    }

    private static double last(PolicyOutcome o, String column) {
        TimeSeries ts = o.series();
        return ts.value(column, ts.rows() - 1);
    }

    @Test
    void rateBelowTheInSyncInflow_stallsCatchUp_butNeverHoldsInSyncReplicasBack() {
        PolicyOutcome o = run(1);
        // The live partitions caught up in the first rounds the empty quota let through, and stayed in their ISR:
        // out of sync at the end are the two backlog partitions broker 0 is preferred for, nothing else.
        assertThat(last(o, "out_of_sync_b0")).isEqualTo(2);
        // Their 1.5 MB/s counts toward the 1 MB/s quota, which never opens again: the six backlog replicas stall.
        assertThat(last(o, "lagging_b0")).isEqualTo(6);
        assertThat(last(o, "throttle_mbps_b0")).isEqualTo(1);
        // With catch-up stalled, nothing delays the in-sync fetches: the last bucket's P99 is the steady one.
        assertThat(last(o, "p99_ms"))
                .isCloseTo(o.kip().steadyP99Ms(), within(0.01 * o.kip().steadyP99Ms()));
    }

    @Test
    void rateAboveTheInSyncInflow_catchesUp() {
        PolicyOutcome o = run(3);
        assertThat(last(o, "lagging_b0")).isZero();
        assertThat(last(o, "out_of_sync_b0")).isZero();
    }

    @Test
    void rateAboveTheBrokersCapacity_changesNothing() {
        PolicyOutcome free = run(0);
        PolicyOutcome high = run(100_000);
        TimeSeries a = free.series();
        TimeSeries b = high.series();
        for (String column : a.columnNames()) {
            if (!column.startsWith("throttle_mbps_")) {
                assertThat(b.column(column)).as(column).containsExactly(a.column(column));
            }
        }
        assertThat(high.kip().windowP99Ms()).isEqualTo(free.kip().windowP99Ms());
        assertThat(high.kip().recoveryMs()).isEqualTo(free.kip().recoveryMs());
    }
}
