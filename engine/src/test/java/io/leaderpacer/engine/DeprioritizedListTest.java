package io.leaderpacer.engine;

import io.leaderpacer.engine.cluster.BrokerState;
import io.leaderpacer.engine.cluster.ClusterSnapshot;
import io.leaderpacer.engine.cluster.PartitionId;
import io.leaderpacer.engine.cluster.PartitionState;
import io.leaderpacer.engine.config.ConfigKey;
import io.leaderpacer.engine.config.PacerConfig;
import org.junit.jupiter.api.Test;

import java.util.Set;

import static io.leaderpacer.engine.RecoveryClusterBuilder.ints;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * KIP-491: brokers on {@code preferred.leader.deprioritized.list} move to the end of every
 * replica order, for preferred and failover election alike; they come last but are never
 * excluded.
 */
class DeprioritizedListTest {

    private static PacerConfig deprioritizing(String list) {
        return PacerConfigs.with(PacerConfigs.immediate(1000), ConfigKey.DEPRIORITIZED_LIST, list);
    }

    private static ClusterSnapshot oneBrokerDown(PartitionState p, BrokerState... states) {
        ClusterSnapshot.Builder b = ClusterSnapshot.builder().activeBrokers(4);
        for (BrokerState s : states) {
            b.replaceBroker(s);
        }
        return b.partition(p).build();
    }

    @Test
    void effectiveOrder_movesDeprioritizedBrokersToTheEndKeepingTheirOrder() {
        PartitionState p = PartitionState.of("t", 0, ints(3, 1, 4, 2), ints(3, 1, 4, 2), 3);
        EffectiveReplicaOrder order = EffectiveReplicaOrder.of(Set.of(3, 4));

        assertThat(order.order(p)).containsExactly(1, 2, 3, 4);
        assertThat(order.preferred(p)).isEqualTo(1);
        for (int i = 0; i < 4; i++) {
            assertThat(order.at(p, i)).isEqualTo(order.order(p)[i]);
        }
        assertThat(EffectiveReplicaOrder.of(Set.of()).order(p)).containsExactly(3, 1, 4, 2);
    }

    @Test
    void deprioritizedPreferredReplica_losesLeadershipToTheNextInOrderIsrMember() {
        ClusterSnapshot cluster = ClusterSnapshot.builder()
                .activeBrokers(4)
                .partition(PartitionState.of("t", 0, ints(1, 2, 3), ints(1, 2, 3), 1))
                .build();

        ElectionDecision d = PreferredLeaderBalancer.decide(cluster, deprioritizing("1"), BalancerMemory.empty(), 0);

        assertThat(d.imbalancedCount())
                .as("leader 1 is no longer the effective preferred replica")
                .isEqualTo(1);
        assertThat(d.elections()).singleElement().satisfies(e -> {
            assertThat(e.previousLeader()).isEqualTo(1);
            assertThat(e.newLeader()).isEqualTo(2);
            assertThat(e.preferredBroker()).isEqualTo(2);
        });
    }

    @Test
    void deprioritizedLeader_keepsLeadershipWhileTheNextPreferredIsNotInIsr() {
        // The PREFERRED rule over the effective order [2, 3, 1]: 2 cannot lead, and the current
        // leader 1 is valid, so nothing changes (the list is a priority, not a failover trigger).
        ClusterSnapshot cluster = ClusterSnapshot.builder()
                .activeBrokers(4)
                .partition(PartitionState.of("t", 0, ints(1, 2, 3), ints(1, 3), 1))
                .build();

        ElectionDecision d = PreferredLeaderBalancer.decide(cluster, deprioritizing("1"), BalancerMemory.empty(), 0);

        assertThat(d.elections()).isEmpty();
    }

    @Test
    void deprioritizedBroker_stillLeadsWhenItIsTheOnlyValidReplica() {
        PartitionState leaderless = PartitionState.of("t", 0, ints(1, 2, 3), ints(1), PartitionState.NO_LEADER);
        ClusterSnapshot cluster = oneBrokerDown(leaderless);
        EffectiveReplicaOrder order = EffectiveReplicaOrder.of(Set.of(1));

        ElectionDecision d = PreferredLeaderBalancer.decide(cluster, deprioritizing("1"), BalancerMemory.empty(), 0);
        FailoverElection.Result failover = FailoverElection.elect(leaderless, cluster, order, false, false);

        assertThat(d.elections()).singleElement().satisfies(e -> {
            assertThat(e.newLeader()).isEqualTo(1);
            assertThat(e.preferredBroker()).isEqualTo(2);
            assertThat(e.toPreferred()).isFalse();
        });
        assertThat(failover).isEqualTo(new FailoverElection.Result(1, false));
    }

    @Test
    void allReplicasDeprioritized_firstAssignedReplicaIsPreferred() {
        ClusterSnapshot cluster = ClusterSnapshot.builder()
                .activeBrokers(4)
                .partition(PartitionState.of("t", 0, ints(2, 1), ints(2, 1), 1))
                .build();

        ElectionDecision d = PreferredLeaderBalancer.decide(cluster, deprioritizing("1,2"), BalancerMemory.empty(), 0);

        assertThat(d.elections())
                .singleElement()
                .extracting(Election::newLeader)
                .isEqualTo(2);
    }

    @Test
    void failover_prefersNonDeprioritizedIsrMembers() {
        // Leader 2 lost; 1 comes first in the assignment but is deprioritized: 3 takes over.
        PartitionState p = PartitionState.of("t", 0, ints(1, 2, 3), ints(1, 2, 3), 2);
        ClusterSnapshot cluster = oneBrokerDown(p, BrokerState.fenced(2));

        FailoverElection.Result withList =
                FailoverElection.elect(p, cluster, EffectiveReplicaOrder.of(Set.of(1)), false, false);
        FailoverElection.Result withoutList =
                FailoverElection.elect(p, cluster, EffectiveReplicaOrder.of(Set.of()), false, false);

        assertThat(withList).isEqualTo(new FailoverElection.Result(3, false));
        assertThat(withoutList).isEqualTo(new FailoverElection.Result(1, false));
    }

    @Test
    void deprioritizedBroker_isNotGatedForPartitionsItNoLongerPrefers() {
        // Gate counts follow the effective preferred replica: broker 1's out-of-sync partitions
        // count for broker 2 once 1 is deprioritized.
        ClusterSnapshot cluster = ClusterSnapshot.builder()
                .activeBrokers(4)
                .partition(PartitionState.of("t", 0, ints(1, 2, 3), ints(2, 3), 2))
                .partition(PartitionState.of("t", 1, ints(1, 2, 3), ints(2, 3), 3))
                .build();
        PacerConfig config = PacerConfigs.with(PacerConfigs.waitForSync(0, 1000), ConfigKey.DEPRIORITIZED_LIST, "1");

        ElectionDecision d = PreferredLeaderBalancer.decide(cluster, config, BalancerMemory.empty(), 0);

        assertThat(d.broker(1).partitions().preferredPartitions()).isZero();
        assertThat(d.broker(2).partitions().preferredPartitions()).isEqualTo(2);
        assertThat(d.isGated(2)).isFalse();
        assertThat(d.elections()).singleElement().satisfies(e -> {
            assertThat(e.partition()).isEqualTo(new PartitionId("t", 1));
            assertThat(e.newLeader()).isEqualTo(2);
        });
    }
}
