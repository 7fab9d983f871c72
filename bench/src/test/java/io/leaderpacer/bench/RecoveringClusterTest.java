package io.leaderpacer.bench;

import io.leaderpacer.engine.BalancerMemory;
import io.leaderpacer.engine.BrokerGateReport;
import io.leaderpacer.engine.ElectionDecision;
import io.leaderpacer.engine.GatePhase;
import io.leaderpacer.engine.PreferredLeaderBalancer;
import io.leaderpacer.engine.cluster.ClusterSnapshot;
import io.leaderpacer.engine.config.PacerConfig;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The benchmark's generator builds what it says, checked on a small cluster of the same shape
 * with one {@code decide} (no timing here: the figures come from the JMH run).
 */
class RecoveringClusterTest {

    /** 20 brokers, 2,000 partitions (100 each), 400 imbalanced = 4 recovering brokers, 1 gated. */
    private static final RecoveringCluster SMALL = new RecoveringCluster(20, 2_000, 400, 1);

    private static final PacerConfig WAIT_FOR_SYNC = PacerConfig.fromMap(Map.of(
            "leader.imbalance.election.algorithm", "wait-for-sync",
            "leader.imbalance.election.wait.for.sync.threshold.percent", "5",
            "leader.imbalance.election.max.per.run", "50"));

    @Test
    void smallCluster_hasTheShapeItWasAskedFor() {
        ClusterSnapshot cluster = SMALL.build();

        assertThat(cluster.brokers()).hasSize(20);
        assertThat(cluster.partitions()).hasSize(2_000);
        assertThat(SMALL.recoveringBrokers()).isEqualTo(4);
        assertThat(cluster.partitions())
                .allSatisfy(p -> assertThat(p.replicaCount()).isEqualTo(3));
        assertThat(cluster.partitions().stream()
                        .filter(p -> p.leader() != p.replicaAt(0))
                        .count())
                .isEqualTo(400);
    }

    @Test
    void oneDecide_gatesTheBrokerThatIsFarBehindAndSharesTheCapAmongTheOthers() {
        ElectionDecision d = PreferredLeaderBalancer.decide(SMALL.build(), WAIT_FOR_SYNC, BalancerMemory.empty(), 0);

        assertThat(d.imbalancedCount()).isEqualTo(400);
        assertThat(d.gatedBrokerCount()).isEqualTo(1);
        BrokerGateReport gated = d.broker(0);
        assertThat(gated.verdict().phase()).isEqualTo(GatePhase.GATED);
        assertThat(gated.partitions().outOfSync()).isEqualTo(20);
        assertThat(gated.run().skippedByGate()).isEqualTo(80);
        for (int b = 1; b < 4; b++) {
            assertThat(d.broker(b).verdict().phase()).isEqualTo(GatePhase.OPEN);
            assertThat(d.broker(b).partitions().outOfSync()).isEqualTo(2);
        }
        assertThat(d.elections()).hasSize(50);
        assertThat(d.elections()).allSatisfy(e -> assertThat(e.newLeader()).isBetween(1, 3));
        assertThat(d.deferredByThrottle()).isEqualTo(3 * 98 - 50);
        assertThat(d.broker(4).partitions().imbalanced())
                .as("brokers past the recovering ones lead all theirs")
                .isZero();
    }

    @Test
    void benchmarkShape_isAThousandBrokersWithAFifthImbalanced() {
        RecoveringCluster million = RecoveringCluster.ofPartitions(1_000_000);
        RecoveringCluster hundredThousand = RecoveringCluster.ofPartitions(100_000);

        assertThat(million).isEqualTo(new RecoveringCluster(1_000, 1_000_000, 200_000, 50));
        assertThat(million.recoveringBrokers()).isEqualTo(200);
        assertThat(hundredThousand).isEqualTo(new RecoveringCluster(1_000, 100_000, 20_000, 50));
        assertThat(hundredThousand.outOfSyncOf(0)).isEqualTo(20);
        assertThat(hundredThousand.outOfSyncOf(199)).isEqualTo(2);
        assertThat(hundredThousand.outOfSyncOf(200)).isZero();
    }

    @Test
    void sameShape_buildsTheSameSnapshot() {
        assertThat(SMALL.build().partitions()).isEqualTo(SMALL.build().partitions());
    }

    @Test
    void impossibleShape_isRefusedSayingWhy() {
        assertThatThrownBy(() -> new RecoveringCluster(7, 100, 0, 0)).hasMessageContaining("multiple of brokers");
        assertThatThrownBy(() -> new RecoveringCluster(10, 100, 15, 0)).hasMessageContaining("imbalanced (15)");
        assertThatThrownBy(() -> new RecoveringCluster(10, 100, 20, 3)).hasMessageContaining("gatedBrokers (3)");
    }
}
