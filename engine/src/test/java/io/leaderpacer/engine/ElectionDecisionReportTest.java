package io.leaderpacer.engine;

import io.leaderpacer.engine.cluster.ClusterSnapshot;
import io.leaderpacer.engine.config.ConfigKey;
import io.leaderpacer.engine.config.PacerConfig;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The per-run figures behind KIP-1358's metrics (OutOfSyncPreferredPartitionCount per broker,
 * skipped by gate, deferred by throttle, GatedBrokerCount, PreferredReplicaImbalanceCount) and
 * the explanation an operator reads: who is gated, why, and since when.
 */
class ElectionDecisionReportTest {

    private static final PacerConfig CONFIG =
            PacerConfigs.with(PacerConfigs.waitForSync(5, 50), ConfigKey.THROTTLE_INTERVAL_MS, "15000");

    /** Broker 0 far behind (gated), broker 1 caught up with 120 candidates (capped), broker 2 balanced. */
    private static ClusterSnapshot cluster() {
        return RecoveryClusterBuilder.brokers(0, 1, 2, 3)
                .preferredBy(0, 100, 40)
                .preferredBy(1, 120, 0)
                .balancedFor(2, 30)
                .build();
    }

    @Test
    void runFigures_countElectionsSkippedDeferredAndOutOfSyncPerBroker() {
        ElectionDecision d = PreferredLeaderBalancer.decide(cluster(), CONFIG, BalancerMemory.empty(), 1_000);

        assertThat(d.elections()).hasSize(50);
        assertThat(d.imbalancedCount()).isEqualTo(220);
        assertThat(d.skippedByGate()).isEqualTo(60);
        assertThat(d.deferredByThrottle()).isEqualTo(70);
        assertThat(d.gatedBrokerCount()).isEqualTo(1);

        BrokerGateReport b0 = d.broker(0);
        assertThat(b0.partitions().preferredPartitions()).isEqualTo(100);
        assertThat(b0.partitions().imbalanced()).isEqualTo(100);
        assertThat(b0.partitions().outOfSync()).isEqualTo(40);
        assertThat(b0.run().skippedByGate()).isEqualTo(60);
        assertThat(b0.run().elected()).isZero();
        assertThat(b0.verdict().episodeStartMs()).isEqualTo(1_000);
        assertThat(b0.active()).isTrue();

        BrokerGateReport b1 = d.broker(1);
        assertThat(b1.partitions().outOfSync()).isZero();
        assertThat(b1.run().elected()).isEqualTo(50);
        assertThat(b1.run().deferredByThrottle()).isEqualTo(70);
        assertThat(b1.verdict().phase()).isEqualTo(GatePhase.OPEN);
        assertThat(b1.verdict().episodeStartMs()).isEqualTo(-1);

        assertThat(d.broker(2).partitions().imbalanced()).isZero();
        assertThat(d.broker(3).partitions().preferredPartitions())
                .as("registered, prefers nothing")
                .isZero();
        assertThat(d.broker(99)).isNull();
        assertThat(d.brokers()).extracting(BrokerGateReport::broker).containsExactly(0, 1, 2, 3);
    }

    @Test
    void outOfSyncCount_returnsToZeroOnceTheBrokerIsInSync() {
        ElectionDecision behind = PreferredLeaderBalancer.decide(cluster(), CONFIG, BalancerMemory.empty(), 0);
        ClusterSnapshot caughtUp = RecoveryClusterBuilder.brokers(0, 1, 2, 3)
                .preferredBy(0, 100, 0)
                .build();
        ElectionDecision clear1 = PreferredLeaderBalancer.decide(caughtUp, CONFIG, behind.nextMemory(), 300_000);
        ElectionDecision clear2 = PreferredLeaderBalancer.decide(caughtUp, CONFIG, clear1.nextMemory(), 600_000);

        assertThat(behind.broker(0).partitions().outOfSync()).isEqualTo(40);
        assertThat(clear1.broker(0).partitions().outOfSync()).isZero();
        assertThat(clear1.skippedByGate())
                .as("still non-zero during the hysteresis run")
                .isEqualTo(100);
        assertThat(clear2.skippedByGate()).isZero();
        assertThat(clear2.gatedBrokerCount()).isZero();
    }

    @Test
    void explain_namesTheGatedBrokerTheRatioTheThresholdAndSinceWhen() {
        ElectionDecision first = PreferredLeaderBalancer.decide(cluster(), CONFIG, BalancerMemory.empty(), 1_000);
        ElectionDecision second = PreferredLeaderBalancer.decide(cluster(), CONFIG, first.nextMemory(), 301_000);

        String text = second.explain();

        assertThat(text)
                .contains("run at 301000 ms: 50 elections (cap 50 reached, more work)")
                .contains("60 skipped by gate")
                .contains("70 deferred by throttle")
                .contains("220 imbalanced")
                .contains("next run in 15000 ms");
        assertThat(second.broker(0).explain())
                .contains("broker 0: GATED")
                .contains("40/100")
                .contains("40.00%")
                .contains("threshold 5%")
                .contains("gated for 300000 ms");
        assertThat(second.broker(0).verdict().episodeStartMs()).isEqualTo(1_000);
        assertThat(second.broker(1).explain())
                .contains("broker 1: OPEN")
                .contains("under threshold: ")
                .contains("% out of sync <= threshold 5%");
    }

    @Test
    void explain_forImmediate_saysNoGateApplies() {
        ElectionDecision d =
                PreferredLeaderBalancer.decide(cluster(), PacerConfigs.immediate(50), BalancerMemory.empty(), 0);

        assertThat(d.broker(0).explain()).contains("NOT_APPLICABLE").contains("immediate");
        assertThat(d.skippedByGate()).isZero();
        assertThat(d.deferredByThrottle()).isEqualTo(220 - 40 - 50);
    }

    @Test
    void explain_worksWithTheLargestCheckInterval() {
        PacerConfig huge = CONFIG.with(ConfigKey.CHECK_INTERVAL_SECONDS.key(), Long.toString(Long.MAX_VALUE))
                .with(ConfigKey.MAX_PER_RUN.key(), "1000");

        ElectionDecision d = PreferredLeaderBalancer.decide(cluster(), huge, BalancerMemory.empty(), 0);

        assertThat(d.nextRunDelayMs()).isEqualTo(Long.MAX_VALUE);
        assertThat(d.explain()).contains("next run in " + Long.MAX_VALUE + " ms");
    }

    @Test
    void decision_isImmutable() {
        ElectionDecision d = PreferredLeaderBalancer.decide(cluster(), CONFIG, BalancerMemory.empty(), 0);

        assertThatThrownBy(() -> d.elections().clear()).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> d.brokers().clear()).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> d.nextMemory().gates().clear()).isInstanceOf(UnsupportedOperationException.class);
    }
}
