package io.leaderpacer.simulator.run;

import io.leaderpacer.simulator.model.RestartedRole;
import io.leaderpacer.simulator.scenario.Scenario;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The CFS period of the restarted broker's quota ({@code cpuPeriodMs}) on {@link RestartedFollowerCluster}, broker 0
 * gated out of leadership and catching up back to back at half a core (its 1,000 MB/s disk calibrated at 50 cores, so
 * 10 MB/s), with no fetch wait or queueing term, so that a write's only delay from broker 0 is its standing: catching
 * up at 8.2 MB/s (97 % of the 10 less its 1.5 MB/s in sync) it spends 0.41 core on catch-up bytes, which over 100-ms
 * periods at half a core stand it 41 % of the time (at most the 50 % the quota leaves), and a write that needs it then
 * waits 25 ms more on average: with that many waiting, the in-sync-follower P99 is one of theirs, and rises by that
 * wait spread by the model's log-normal noise (17.4 to 57.1 ms when written). At a whole core nothing stands.
 */
class QuotaPeriodScenarioTest {

    private static double inSyncFollowerP99(String cores, int periodMs) {
        Scenario s = RestartedFollowerCluster.scenario(
                ", calibratedCores: 50, followerFetchWaitScale: 0, followerSaturationMs: 0, restartedBrokerCores: "
                        + cores + ", cpuPeriodMs: " + periodMs,
                RestartedFollowerCluster.gatedOnly(0));
        return new ScenarioRunner(ProgressListener.NONE)
                .run(s, s.seed())
                .outcome("gated")
                .classes()
                .windowP99Ms(RestartedRole.IN_SYNC_FOLLOWER);
    }

    @Test
    void halfACore_with100msPeriods_raisesTheInSyncFollowerP99ByAStandingWait() {
        double without = inSyncFollowerP99("0.5", 0);
        assertThat(inSyncFollowerP99("0.5", 100) - without).isBetween(20.0, 60.0);
    }

    @Test
    void aWholeCore_withOrWithoutPeriods_isTheSame() {
        assertThat(inSyncFollowerP99("1", 100)).isEqualTo(inSyncFollowerP99("1", 0));
    }
}
