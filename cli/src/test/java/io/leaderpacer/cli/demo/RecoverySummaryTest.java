package io.leaderpacer.cli.demo;

import io.leaderpacer.engine.GatePhase;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class RecoverySummaryTest {

    private static TimelineSample s(long atMs, boolean active, int outOfSync, int leaders, int gained, double p99) {
        return new TimelineSample(atMs, active, outOfSync, 100, active ? GatePhase.GATED : GatePhase.GATED, leaders,
                gained, gained, p99, 100);
    }

    /** Restart at 5 s; gated until 20 s; then 40 + 40 + 20 per run. */
    private static RecoveryRun paced() {
        return new RecoveryRun("wait-for-sync", "", 1, 5_000, List.of(
                s(1_000, false, 100, 0, 0, 3.0),
                s(6_000, true, 80, 0, 0, 4.0),
                s(12_000, true, 30, 0, 0, 9.0),
                s(20_000, true, 5, 0, 40, 6.0),
                s(22_000, true, 2, 40, 40, 7.0),
                s(24_000, true, 0, 80, 20, 5.0),
                s(26_000, true, 0, 100, 0, 2.0)),
                6.5, 4_000);
    }

    @Test
    void pacedRecovery_timesAreMeasuredFromTheRestart() {
        RecoverySummary summary = RecoverySummary.of(paced(), 10);

        assertThat(summary.firstLeadershipMs()).hasValue(15_000);
        assertThat(summary.regainMs()).hasValue(19_000);
    }

    @Test
    void pacedRecovery_countsRunsAndTheLargestBatch() {
        RecoverySummary summary = RecoverySummary.of(paced(), 10);

        assertThat(summary.maxGainedPerRun()).isEqualTo(40);
        assertThat(summary.runsWithElections()).isEqualTo(3);
        assertThat(summary.electionsWhileOverThreshold()).isZero();
    }

    @Test
    void worstIntervalLatency_stopsAtFullRecoveryAndIgnoresTheDownPhase() {
        RecoverySummary summary = RecoverySummary.of(paced(), 10);

        // 9.0 at 12 s is the worst after the restart; 3.0 before it and 2.0 after recovery do not count.
        assertThat(summary.worstIntervalP99Ms()).isCloseTo(9.0, within(1e-9));
        assertThat(summary.windowP99Ms()).isCloseTo(6.5, within(1e-9));
    }

    @Test
    void leadershipReturnedWhileOverThreshold_isCountedPerElection() {
        RecoveryRun immediate = new RecoveryRun("immediate", "", 1, 0, List.of(
                s(1_000, true, 60, 0, 40, 3.0),
                s(2_000, true, 20, 40, 40, 3.0),
                s(3_000, true, 0, 80, 20, 3.0)),
                3.0, 300);

        RecoverySummary summary = RecoverySummary.of(immediate, 10);

        assertThat(summary.electionsWhileOverThreshold()).isEqualTo(80);
        assertThat(summary.regainMs()).hasValue(3_000);
    }

    @Test
    void brokerThatNeverRecovers_hasNoRegainTime() {
        RecoveryRun stuck = new RecoveryRun("wait-for-sync", "", 1, 0, List.of(
                s(1_000, true, 60, 0, 0, 3.0), s(2_000, true, 50, 0, 0, Double.NaN)), Double.NaN, 0);

        RecoverySummary summary = RecoverySummary.of(stuck, 10);

        assertThat(summary.regainMs()).isEmpty();
        assertThat(summary.firstLeadershipMs()).isEmpty();
        assertThat(summary.worstIntervalP99Ms()).isCloseTo(3.0, within(1e-9));
    }

    @Test
    void leadershipBeforeTheRestart_isNotARecovery() {
        RecoveryRun run = new RecoveryRun("immediate", "", 1, 10_000, List.of(
                new TimelineSample(1_000, true, 0, 100, GatePhase.NOT_APPLICABLE, 100, 0, 0, 1.0, 10),
                s(11_000, true, 100, 0, 0, 1.0)), 1.0, 10);

        assertThat(RecoverySummary.of(run, 10).regainMs()).isEmpty();
    }
}
