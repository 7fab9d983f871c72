package io.leaderpacer.engine;

import io.leaderpacer.engine.cluster.ClusterSnapshot;
import io.leaderpacer.engine.config.ConfigKey;
import io.leaderpacer.engine.config.PacerConfig;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * KIP-1358's test plan, the gate: threshold 0 and 5 (4 % / 6 %), max-wait release and hysteresis.
 * Broker 0 is the recovering broker throughout; broker 1 is a healthy broker whose partitions
 * show that the gate holds back only the broker it is about.
 */
class WaitForSyncGateTest {

    private static final long RUN = 300_000;

    private static ClusterSnapshot broker0OutOfSync(int outOfSync, int of) {
        return RecoveryClusterBuilder.brokers(0, 1, 2, 3)
                .preferredBy(0, of, outOfSync)
                .preferredBy(1, 10, 0)
                .build();
    }

    @Test
    void thresholdZero_brokerWithOneOutOfSyncPartition_getsNoElections() {
        ElectionDecision d = PreferredLeaderBalancer.decide(
                broker0OutOfSync(1, 100), PacerConfigs.waitForSync(0, 1000), BalancerMemory.empty(), 0);

        assertThat(d.isGated(0)).isTrue();
        assertThat(d.broker(0).verdict().phase()).isEqualTo(GatePhase.GATED);
        assertThat(d.electionsTo(0)).isZero();
        assertThat(d.skippedByGate()).isEqualTo(99);
        assertThat(d.broker(0).run().skippedByGate()).isEqualTo(99);
        assertThat(d.isGated(1)).isFalse();
        assertThat(d.electionsTo(1)).isEqualTo(10);
    }

    @Test
    void thresholdZero_brokerFullyInSync_isElectedOnceReleased() {
        PacerConfig config = PacerConfigs.waitForSync(0, 1000);
        ElectionDecision gated =
                PreferredLeaderBalancer.decide(broker0OutOfSync(1, 100), config, BalancerMemory.empty(), 0);
        ElectionDecision firstClear =
                PreferredLeaderBalancer.decide(broker0OutOfSync(0, 100), config, gated.nextMemory(), RUN);
        ElectionDecision secondClear =
                PreferredLeaderBalancer.decide(broker0OutOfSync(0, 100), config, firstClear.nextMemory(), 2 * RUN);

        assertThat(firstClear.electionsTo(0)).isZero();
        assertThat(secondClear.isGated(0)).isFalse();
        assertThat(secondClear.electionsTo(0)).isEqualTo(100);
    }

    @Test
    void thresholdZero_brokerInSyncFromTheStart_isElectedAtOnce() {
        ElectionDecision d = PreferredLeaderBalancer.decide(
                broker0OutOfSync(0, 100), PacerConfigs.waitForSync(0, 1000), BalancerMemory.empty(), 0);

        assertThat(d.broker(0).verdict().phase()).isEqualTo(GatePhase.OPEN);
        assertThat(d.electionsTo(0)).isEqualTo(100);
    }

    @Test
    void thresholdFive_fourPercentOutOfSync_isNotGated() {
        ElectionDecision d = PreferredLeaderBalancer.decide(
                broker0OutOfSync(4, 100), PacerConfigs.waitForSync(5, 1000), BalancerMemory.empty(), 0);

        assertThat(d.isGated(0)).isFalse();
        assertThat(d.broker(0).partitions().outOfSync()).isEqualTo(4);
        assertThat(d.broker(0).ratio().percent()).isEqualTo(4.0);
        // The 96 in-sync partitions are elected; the 4 out of sync keep their (valid) leader.
        assertThat(d.electionsTo(0)).isEqualTo(96);
        assertThat(d.skippedByGate()).isZero();
    }

    @Test
    void thresholdFive_sixPercentOutOfSync_isGated() {
        ElectionDecision d = PreferredLeaderBalancer.decide(
                broker0OutOfSync(6, 100), PacerConfigs.waitForSync(5, 1000), BalancerMemory.empty(), 0);

        assertThat(d.isGated(0)).isTrue();
        assertThat(d.electionsTo(0)).isZero();
        assertThat(d.skippedByGate()).isEqualTo(94);
        assertThat(d.gatedBrokerCount()).isEqualTo(1);
        assertThat(d.broker(0).verdict().reason()).contains("6/100");
    }

    @Test
    void thresholdFive_exactlyFivePercent_isNotGated() {
        // The comparison is strict: "more than threshold.percent".
        ElectionDecision d = PreferredLeaderBalancer.decide(
                broker0OutOfSync(5, 100), PacerConfigs.waitForSync(5, 1000), BalancerMemory.empty(), 0);

        assertThat(d.isGated(0)).isFalse();
    }

    @Test
    void maxWait_gatedBrokerStillOutOfSync_isReleasedAfterTheConfiguredDuration() {
        PacerConfig config = PacerConfigs.with(PacerConfigs.waitForSync(5, 1000), ConfigKey.MAX_WAIT_MS, "1800000");
        ClusterSnapshot stuck = broker0OutOfSync(50, 100);
        BalancerMemory memory = BalancerMemory.empty();
        ElectionDecision d = null;
        for (long t = 0; t < 1_800_000; t += RUN) {
            d = PreferredLeaderBalancer.decide(stuck, config, memory, t);
            memory = d.nextMemory();
            assertThat(d.isGated(0)).as("gated at %d ms", t).isTrue();
            assertThat(d.electionsTo(0)).isZero();
        }
        assertThat(d.broker(0).verdict().gatedActiveMs()).isEqualTo(1_500_000);

        ElectionDecision released = PreferredLeaderBalancer.decide(stuck, config, memory, 1_800_000);

        assertThat(released.broker(0).verdict().phase()).isEqualTo(GatePhase.ESCAPED);
        assertThat(released.isGated(0)).isFalse();
        assertThat(released.electionsTo(0)).isEqualTo(50);
        assertThat(released.broker(0).verdict().reason()).contains("max-wait");
    }

    @Test
    void maxWaitZero_gatedBrokerIsNeverReleasedWhileOutOfSync() {
        PacerConfig config = PacerConfigs.with(PacerConfigs.waitForSync(5, 1000), ConfigKey.MAX_WAIT_MS, "0");
        BalancerMemory memory = BalancerMemory.empty();
        for (long t = 0; t <= 10 * 3_600_000L; t += 3_600_000L) {
            ElectionDecision d = PreferredLeaderBalancer.decide(broker0OutOfSync(50, 100), config, memory, t);
            memory = d.nextMemory();
            assertThat(d.isGated(0)).as("gated at %d ms", t).isTrue();
        }
    }

    @Test
    void hysteresis_brokerBrieflyOutOfSync_staysGatedOneMoreRunAfterReturningToSync() {
        PacerConfig config = PacerConfigs.waitForSync(5, 1000);
        ElectionDecision open =
                PreferredLeaderBalancer.decide(broker0OutOfSync(0, 100), config, BalancerMemory.empty(), 0);
        ElectionDecision dropped =
                PreferredLeaderBalancer.decide(broker0OutOfSync(30, 100), config, open.nextMemory(), RUN);
        ElectionDecision backInSync =
                PreferredLeaderBalancer.decide(broker0OutOfSync(0, 100), config, dropped.nextMemory(), 2 * RUN);
        ElectionDecision secondClear =
                PreferredLeaderBalancer.decide(broker0OutOfSync(0, 100), config, backInSync.nextMemory(), 3 * RUN);

        assertThat(open.isGated(0)).isFalse();
        assertThat(dropped.isGated(0)).as("a not-gated broker is gated at once").isTrue();
        assertThat(backInSync.isGated(0))
                .as("one extra gated run after returning to sync")
                .isTrue();
        assertThat(backInSync.broker(0).verdict().clearRuns()).isEqualTo(1);
        assertThat(backInSync.electionsTo(0)).isZero();
        assertThat(secondClear.isGated(0)).isFalse();
        assertThat(secondClear.electionsTo(0)).isEqualTo(100);
    }

    @Test
    void hysteresis_clearRunInterruptedByAnotherDrop_restartsTheCount() {
        PacerConfig config = PacerConfigs.waitForSync(5, 1000);
        int[] outOfSyncPerRun = {30, 0, 30, 0, 0};
        boolean[] expectGated = {true, true, true, true, false};
        BalancerMemory memory = BalancerMemory.empty();
        for (int run = 0; run < outOfSyncPerRun.length; run++) {
            ElectionDecision d = PreferredLeaderBalancer.decide(
                    broker0OutOfSync(outOfSyncPerRun[run], 100), config, memory, run * RUN);
            memory = d.nextMemory();
            assertThat(d.isGated(0)).as("run %d", run).isEqualTo(expectGated[run]);
        }
    }

    @Test
    void immediateAlgorithm_neverGates() {
        ElectionDecision d = PreferredLeaderBalancer.decide(
                broker0OutOfSync(60, 100), PacerConfigs.immediate(1000), BalancerMemory.empty(), 0);

        assertThat(d.broker(0).verdict().phase()).isEqualTo(GatePhase.NOT_APPLICABLE);
        assertThat(d.gatedBrokerCount()).isZero();
        assertThat(d.electionsTo(0)).isEqualTo(40);
        assertThat(d.nextMemory().gates()).isEmpty();
    }
}
