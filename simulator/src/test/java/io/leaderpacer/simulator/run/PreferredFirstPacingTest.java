package io.leaderpacer.simulator.run;

import io.leaderpacer.simulator.scenario.Scenario;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Catch-up pacing's preferred replicas first and its recovery deadline on the model, on {@link RestartedFollowerCluster}
 * (broker 0 back about 3 s after its stop at 120 s with 6 backlog partitions of 100 MB behind, 2 of which it is the
 * preferred leader of): the simulator gives the engine the preferred replicas the agent observes and splits the paced
 * broker's rate as the agent's throttles do.
 */
class PreferredFirstPacingTest {

    private static final String STATIC_6_MIB =
            "leader.imbalance.catch.up.pacing=static,leader.imbalance.catch.up.pacing.rate.bytes=6291456,"
                    + "leader.imbalance.catch.up.pacing.min.rate.bytes=1048576";

    private static PolicyOutcome run(String pacingKeys) {
        Scenario s = RestartedFollowerCluster.scenario(
                ", bucketSeconds: 1", "policies: [\"kip-example:" + pacingKeys + "\"]");
        return new ScenarioRunner(ProgressListener.NONE)
                .run(s, s.seed())
                .outcomes()
                .get(1);
    }

    /** The first second after the restart at which broker 0 has no preferred partition out of sync. */
    private static int preferredInSyncRow(PolicyOutcome o) {
        TimeSeries ts = o.series();
        int row = ts.rowAt(125);
        while (row < ts.rows() - 1 && ts.value("out_of_sync_b0", row) > 0) {
            row++;
        }
        return row;
    }

    /** Seconds from unfencing (123 s) until broker 0 has no preferred partition out of sync (to the run's end if never). */
    private static double preferredInSyncSeconds(PolicyOutcome o) {
        return o.series().value("time_s", preferredInSyncRow(o)) - 123;
    }

    @Test
    void preferredFirst_bringsThePreferredReplicasInSyncWhileTheOthersStillLag() {
        PolicyOutcome first = run(STATIC_6_MIB + ",leader.imbalance.catch.up.pacing.preferred.first=true");
        PolicyOutcome alike = run(STATIC_6_MIB);

        int firstRow = preferredInSyncRow(first);
        // Preferred first: the 2 preferred backlog partitions (200 MB) and its 10 preferred live ones share the 6
        // MiB/s,
        // the other 24 lagging replicas share the 1 MiB/s on top: about 32 s, and the other backlog partitions are
        // still
        // far behind then.
        assertThat(first.series().value("lagging_b0", firstRow))
                .as("replicas still lagging when the preferred ones are in sync")
                .isGreaterThanOrEqualTo(4);
        // Alike: all 36 share the 6 MiB/s and the backlog partitions finish together, 600 MB later: about 95 s.
        double firstS = preferredInSyncSeconds(first);
        double alikeS = preferredInSyncSeconds(alike);
        assertThat(firstS).isBetween(20.0, 45.0);
        assertThat(alikeS).isBetween(80.0, 100.0);
        // Leadership's return is not asserted: in this cluster the controller's periodic imbalance check sets it (the
        // same 129 s after unfencing for both, and for immediate).
    }

    @Test
    void aDeadline_raisesTheRateSoThatThePreferredReplicasAreInSyncWithinIt() {
        String slow = "leader.imbalance.catch.up.pacing=static,leader.imbalance.catch.up.pacing.rate.bytes=2097152,"
                + "leader.imbalance.catch.up.pacing.min.rate.bytes=1048576,"
                + "leader.imbalance.catch.up.pacing.preferred.first=true";
        PolicyOutcome without = run(slow);
        PolicyOutcome with = run(slow + ",leader.imbalance.catch.up.pacing.deadline.ms=60000");

        // Without: at 1 MiB/s for them, the 200 MB of its 2 preferred backlog partitions are not in sync within 60 s of
        // unfencing (the model has them in sync after about 95 s: its throttled grant comes in whole responses).
        assertThat(preferredInSyncSeconds(without)).isGreaterThan(60.0);
        // With: the deadline's floor has them in sync within the 60 s from unfencing, less the time it leaves the
        // election runs to hand leadership back.
        assertThat(preferredInSyncSeconds(with)).isLessThanOrEqualTo(60.0);
        assertThat(Arrays.stream(with.series().column("throttle_mbps_b0")).max().orElse(0))
                .as("the deadline's floor over the 1 MiB/s, and the others' 1 MiB/s on top")
                .isGreaterThan(3.0);
    }
}
