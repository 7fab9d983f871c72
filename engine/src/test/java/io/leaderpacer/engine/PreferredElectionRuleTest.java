package io.leaderpacer.engine;

import io.leaderpacer.engine.cluster.BrokerState;
import io.leaderpacer.engine.cluster.ClusterSnapshot;
import io.leaderpacer.engine.cluster.PartitionId;
import io.leaderpacer.engine.cluster.PartitionState;
import io.leaderpacer.engine.config.PacerConfig;
import org.junit.jupiter.api.Test;

import java.util.Set;

import static io.leaderpacer.engine.RecoveryClusterBuilder.ints;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Kafka's {@code Election.PREFERRED} rule, case by case: when the preferred replica is elected,
 * when the current leader stays, when the first valid replica takes over, and which partitions
 * the task leaves alone.
 */
class PreferredElectionRuleTest {

    private static final EffectiveReplicaOrder ASSIGNMENT = EffectiveReplicaOrder.of(Set.of());

    private static ClusterSnapshot cluster(PartitionState p, BrokerState... states) {
        ClusterSnapshot.Builder b = ClusterSnapshot.builder().activeBrokers(4);
        for (BrokerState s : states) {
            b.replaceBroker(s);
        }
        return b.partition(p).build();
    }

    private static int decide(PartitionState p, BrokerState... states) {
        return PreferredElection.decide(p, cluster(p, states), ASSIGNMENT);
    }

    @Test
    void preferredInIsrAndActive_isElected() {
        assertThat(decide(PartitionState.of("t", 0, ints(1, 2, 3), ints(1, 2, 3), 2)))
                .isEqualTo(1);
    }

    @Test
    void preferredFenced_currentLeaderStays() {
        assertThat(decide(PartitionState.of("t", 0, ints(1, 2, 3), ints(1, 2, 3), 2), BrokerState.fenced(1)))
                .isEqualTo(PreferredElection.NO_CHANGE);
    }

    @Test
    void preferredInControlledShutdown_currentLeaderStays() {
        assertThat(decide(PartitionState.of("t", 0, ints(1, 2, 3), ints(1, 2, 3), 2), BrokerState.shuttingDown(1)))
                .isEqualTo(PreferredElection.NO_CHANGE);
    }

    @Test
    void preferredNotInIsr_currentLeaderStays() {
        assertThat(decide(PartitionState.of("t", 0, ints(1, 2, 3), ints(2, 3), 2)))
                .isEqualTo(PreferredElection.NO_CHANGE);
    }

    @Test
    void preferredOnlyInElrWhileIsrIsNotEmpty_isNotElected() {
        PartitionState p =
                new PartitionState(new PartitionId("t", 0), ints(1, 2, 3), ints(2), ints(1), 2, false, false);

        assertThat(decide(p)).isEqualTo(PreferredElection.NO_CHANGE);
    }

    @Test
    void preferredInElrWithEmptyIsr_isElected() {
        PartitionState p = new PartitionState(
                new PartitionId("t", 0), ints(1, 2, 3), ints(), ints(1, 3), PartitionState.NO_LEADER, false, false);

        assertThat(decide(p)).isEqualTo(1);
    }

    @Test
    void preferredUnregistered_isNotElected() {
        PartitionState p = PartitionState.of("t", 0, ints(9, 2, 3), ints(2, 3), 2);

        assertThat(decide(p)).isEqualTo(PreferredElection.NO_CHANGE);
    }

    @Test
    void currentLeaderInvalid_firstValidReplicaInOrderTakesOver() {
        // Preferred 1 fenced, leader 2 shutting down: 3 is the first valid one after the preferred.
        PartitionState p = PartitionState.of("t", 0, ints(1, 2, 3, 0), ints(1, 2, 3, 0), 2);

        assertThat(decide(p, BrokerState.fenced(1), BrokerState.shuttingDown(2)))
                .isEqualTo(3);
    }

    @Test
    void leaderless_firstValidReplicaInOrderTakesOver() {
        PartitionState p = PartitionState.of("t", 0, ints(1, 2, 3), ints(3, 2), PartitionState.NO_LEADER);

        assertThat(decide(p))
                .as("2 comes before 3 in the assignment, whatever the ISR order")
                .isEqualTo(2);
    }

    @Test
    void noValidReplicaAtAll_withAnInvalidLeader_electsNoLeader() {
        // Kafka's builder finds the preferred replica, the current leader and every other replica invalid,
        // and writes leader -1: a record, like any other election.
        PartitionState p = PartitionState.of("t", 0, ints(1, 2), ints(1, 2), 2);

        assertThat(decide(p, BrokerState.fenced(1), BrokerState.fenced(2))).isEqualTo(PartitionState.NO_LEADER);
    }

    @Test
    void noValidReplica_emptyIsrAndElr_activeLastKnownLeader_isElected() {
        PartitionState p = new PartitionState(
                new PartitionId("t", 0), ints(1, 2), ints(), ints(), PartitionState.NO_LEADER, false, false, ints(2));

        assertThat(decide(p, BrokerState.fenced(1))).isEqualTo(2);
        assertThat(decide(p, BrokerState.fenced(1), BrokerState.fenced(2)))
                .as("not when it is down")
                .isEqualTo(PreferredElection.NO_CHANGE);
    }

    @Test
    void noValidReplicaAtAll_alreadyLeaderless_isNoChange() {
        PartitionState p = PartitionState.of("t", 0, ints(1, 2), ints(1, 2), PartitionState.NO_LEADER);

        assertThat(decide(p, BrokerState.fenced(1), BrokerState.fenced(2))).isEqualTo(PreferredElection.NO_CHANGE);
    }

    @Test
    void issueSmallestLeaderlessCase_countsAgainstTheCap_andTakesTwoRunsMoreAtCapOne() {
        // Broker 0 active, broker 1 fenced; replicas [0,1], isr [1], leader 1: Kafka writes leader -1.
        ClusterSnapshot cluster = ClusterSnapshot.builder()
                .broker(BrokerState.active(0))
                .broker(BrokerState.fenced(1))
                .partition(PartitionState.of("t", 0, ints(0, 1), ints(1), 1))
                .partition(PartitionState.of("t", 1, ints(0, 1), ints(0, 1), 1))
                .build();

        ElectionDecision d =
                PreferredLeaderBalancer.decide(cluster, PacerConfigs.immediate(1), BalancerMemory.empty(), 0);

        assertThat(d.elections())
                .containsExactly(new Election(new PartitionId("t", 0), 1, PartitionState.NO_LEADER, 0));
        assertThat(d.moreWork()).as("the no-leader record reaches the cap of 1").isTrue();
        assertThat(d.deferredByThrottle()).isEqualTo(1);
        assertThat(d.elections().get(0).toPreferred()).isFalse();
    }

    @Test
    void currentLeaderValid_noChangeIsNotCountedAgainstTheCap() {
        ClusterSnapshot cluster = ClusterSnapshot.builder()
                .activeBrokers(4)
                .partition(PartitionState.of("t", 0, ints(1, 2, 3), ints(2, 3), 2))
                .partition(PartitionState.of("t", 1, ints(1, 2, 3), ints(1, 2, 3), 2))
                .build();

        ElectionDecision d =
                PreferredLeaderBalancer.decide(cluster, PacerConfigs.immediate(1), BalancerMemory.empty(), 0);

        assertThat(d.elections())
                .singleElement()
                .extracting(e -> e.partition().partition())
                .isEqualTo(1);
        assertThat(d.deferredByThrottle()).isZero();
        assertThat(d.imbalancedCount()).isEqualTo(2);
    }

    @Test
    void immediate_electsUnderReassignment_asKafkasLoopDoes_butSkipsADeletedTopic() {
        // Kafka 4.3.1's loop walks imbalancedPartitions with no reassignment check; a deleted topic's
        // partitions leave that set when its RemoveTopicRecord is replayed, so the loop never sees them.
        ClusterSnapshot cluster = ClusterSnapshot.builder()
                .activeBrokers(4)
                .partition(PartitionState.of("moving", 0, ints(1, 2, 3), ints(1, 2, 3), 2)
                        .withReassigning(true))
                .partition(PartitionState.of("deleted", 0, ints(1, 2, 3), ints(1, 2, 3), 2)
                        .withTopicDeleting(true))
                .partition(PartitionState.of("kept", 0, ints(1, 2, 3), ints(1, 2, 3), 2))
                .build();

        ElectionDecision d =
                PreferredLeaderBalancer.decide(cluster, PacerConfigs.immediate(1000), BalancerMemory.empty(), 0);

        assertThat(d.elections()).extracting(e -> e.partition().topic()).containsExactly("moving", "kept");
    }

    @Test
    void waitForSync_keepsKip1358sGuards_reassigningAndDeletingPartitionsAreSkipped() {
        ClusterSnapshot cluster = ClusterSnapshot.builder()
                .activeBrokers(4)
                .partition(PartitionState.of("moving", 0, ints(1, 2, 3), ints(1, 2, 3), 2)
                        .withReassigning(true))
                .partition(PartitionState.of("deleted", 0, ints(1, 2, 3), ints(1, 2, 3), 2)
                        .withTopicDeleting(true))
                // Out of sync but being reassigned: must not count towards broker 1's gate either.
                .partition(PartitionState.of("moving", 1, ints(1, 2, 3), ints(2, 3), 2)
                        .withReassigning(true))
                .partition(PartitionState.of("kept", 0, ints(1, 2, 3), ints(1, 2, 3), 2))
                .build();
        PacerConfig config = PacerConfigs.immediate(1000).with("leader.imbalance.election.algorithm", "wait-for-sync");

        ElectionDecision d = PreferredLeaderBalancer.decide(cluster, config, BalancerMemory.empty(), 0);

        assertThat(d.elections()).extracting(e -> e.partition().topic()).containsExactly("kept");
        assertThat(d.broker(1).partitions().preferredPartitions()).isEqualTo(1);
        assertThat(d.broker(1).partitions().outOfSync()).isZero();
        assertThat(d.imbalancedCount())
                .as("Kafka's imbalance count still sees them")
                .isEqualTo(4);
    }

    @Test
    void leaderAlreadyPreferred_isNotACandidate() {
        ClusterSnapshot cluster = ClusterSnapshot.builder()
                .activeBrokers(4)
                .partition(PartitionState.of("t", 0, ints(1, 2, 3), ints(1, 2, 3), 1))
                .build();

        ElectionDecision d = PreferredLeaderBalancer.decide(cluster, PacerConfig.defaults(), BalancerMemory.empty(), 0);

        assertThat(d.elections()).isEmpty();
        assertThat(d.imbalancedCount()).isZero();
    }
}
