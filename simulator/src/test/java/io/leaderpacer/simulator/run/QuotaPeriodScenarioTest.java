package io.leaderpacer.simulator.run;

import io.leaderpacer.simulator.model.RestartedRole;
import io.leaderpacer.simulator.scenario.Scenario;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The CFS period of the restarted broker's quota ({@code cpuPeriodMs}) on {@link RestartedFollowerCluster}, broker 0
 * gated out of leadership and catching up back to back at half a core (its 1,000 MB/s disk calibrated at 50 cores, so
 * 10 MB/s), with 50-KB fetches and no queueing term, so that the caught wait is the in-sync writes' only delay: a
 * fetcher's response of three or four partitions takes 37-49 ms at the quota's rate, 18-24 ms of CPU at one core's
 * speed, under a 100-ms period's 50-ms budget, so a share of them (37-49 %) meets the period's end and stands 50 ms:
 * those writes wait 1.5 x (run + 50) ms where all waited 1.5 x 37-49 before, and the in-sync-follower P99 rises (by
 * about a fifth here). At a whole core one fetcher thread cannot spend the quota and nothing changes.
 */
class QuotaPeriodScenarioTest {

    private static double inSyncFollowerP99(String cores, int periodMs) {
        Scenario s = RestartedFollowerCluster.scenario(
                ", calibratedCores: 50, replicaFetchMaxBytes: 50000, followerSaturationMs: 0, restartedBrokerCores: "
                        + cores + ", cpuPeriodMs: " + periodMs,
                RestartedFollowerCluster.gatedOnly(0));
        return new ScenarioRunner(ProgressListener.NONE)
                .run(s, s.seed())
                .outcome("gated")
                .classes()
                .windowP99Ms(RestartedRole.IN_SYNC_FOLLOWER);
    }

    @Test
    void halfACore_with100msPeriods_raisesTheInSyncFollowerP99() {
        assertThat(inSyncFollowerP99("0.5", 100)).isGreaterThan(1.1 * inSyncFollowerP99("0.5", 0));
    }

    @Test
    void aWholeCore_withOrWithoutPeriods_isTheSame() {
        assertThat(inSyncFollowerP99("1", 100)).isEqualTo(inSyncFollowerP99("1", 0));
    }
}
