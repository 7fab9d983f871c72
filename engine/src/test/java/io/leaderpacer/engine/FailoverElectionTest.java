package io.leaderpacer.engine;

import io.leaderpacer.engine.cluster.BrokerState;
import io.leaderpacer.engine.cluster.ClusterSnapshot;
import io.leaderpacer.engine.cluster.PartitionId;
import io.leaderpacer.engine.cluster.PartitionState;
import org.junit.jupiter.api.Test;

import java.util.Set;

import static io.leaderpacer.engine.RecoveryClusterBuilder.ints;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Failover election (Kafka's replication design, its {@code Election.ONLINE} / {@code UNCLEAN}): first active
 * ISR member, then ELR when on, then unclean only when the topic allows it.
 */
class FailoverElectionTest {

    private static final EffectiveReplicaOrder ASSIGNMENT = EffectiveReplicaOrder.of(Set.of());

    private static PartitionState partition(int[] isr, int[] elr) {
        return new PartitionState(
                new PartitionId("t", 0), ints(1, 2, 3), isr, elr, PartitionState.NO_LEADER, false, false);
    }

    private static ClusterSnapshot cluster(PartitionState p, BrokerState... states) {
        ClusterSnapshot.Builder b = ClusterSnapshot.builder().activeBrokers(4);
        for (BrokerState s : states) {
            b.replaceBroker(s);
        }
        return b.partition(p).build();
    }

    @Test
    void activeIsrMember_isElectedInAssignmentOrder() {
        PartitionState p = partition(ints(3, 2), ints());

        assertThat(FailoverElection.elect(p, cluster(p), ASSIGNMENT, true, true))
                .isEqualTo(new FailoverElection.Result(2, false));
    }

    @Test
    void inactiveIsrMembers_areSkipped() {
        PartitionState p = partition(ints(1, 2, 3), ints());

        assertThat(FailoverElection.elect(
                        p, cluster(p, BrokerState.fenced(1), BrokerState.shuttingDown(2)), ASSIGNMENT, false, false))
                .isEqualTo(new FailoverElection.Result(3, false));
    }

    @Test
    void elr_isNotUsedWhileAnActiveIsrMemberExists() {
        // 1 is first in order and in the ELR, but 3 is in the ISR: the ISR wins.
        PartitionState p = partition(ints(3), ints(1));

        assertThat(FailoverElection.elect(p, cluster(p), ASSIGNMENT, true, true))
                .isEqualTo(new FailoverElection.Result(3, false));
    }

    @Test
    void emptyIsr_elrMemberIsElectedCleanlyWhenElrIsOn() {
        PartitionState p = partition(ints(), ints(2, 3));

        assertThat(FailoverElection.elect(p, cluster(p), ASSIGNMENT, true, false))
                .isEqualTo(new FailoverElection.Result(2, false));
    }

    @Test
    void emptyIsr_elrIgnoredWhenElrIsOff_partitionStaysLeaderless() {
        PartitionState p = partition(ints(), ints(2, 3));

        FailoverElection.Result r = FailoverElection.elect(p, cluster(p), ASSIGNMENT, false, false);

        assertThat(r.hasLeader()).isFalse();
        assertThat(r.leader()).isEqualTo(PartitionState.NO_LEADER);
    }

    @Test
    void noActiveIsrMember_elrMemberIsElected_asDesignNotesSay() {
        // docs/DESIGN-NOTES.md: "with no active ISR member, an ELR member if ELR is on". (Kafka itself only
        // reads the ELR when the ISR is empty; with ELR on it removes fenced brokers from the ISR,
        // so the two agree on every state Kafka produces.)
        PartitionState p = partition(ints(3), ints(2));

        assertThat(FailoverElection.elect(p, cluster(p, BrokerState.fenced(3)), ASSIGNMENT, true, false))
                .isEqualTo(new FailoverElection.Result(2, false));
    }

    @Test
    void noIsrOrElrLeader_uncleanAllowed_firstActiveReplicaMarkedUnclean() {
        PartitionState p = partition(ints(1), ints());

        FailoverElection.Result r =
                FailoverElection.elect(p, cluster(p, BrokerState.fenced(1)), ASSIGNMENT, true, true);

        assertThat(r).isEqualTo(new FailoverElection.Result(2, true));
    }

    @Test
    void noIsrOrElrLeader_uncleanNotAllowed_partitionStaysLeaderless() {
        PartitionState p = partition(ints(1), ints());

        FailoverElection.Result r =
                FailoverElection.elect(p, cluster(p, BrokerState.fenced(1)), ASSIGNMENT, true, false);

        assertThat(r).isEqualTo(new FailoverElection.Result(PartitionState.NO_LEADER, false));
    }

    @Test
    void unclean_prefersNonDeprioritizedReplicas() {
        PartitionState p = partition(ints(1), ints());

        FailoverElection.Result r = FailoverElection.elect(
                p, cluster(p, BrokerState.fenced(1)), EffectiveReplicaOrder.of(Set.of(2)), false, true);

        assertThat(r).isEqualTo(new FailoverElection.Result(3, true));
    }

    @Test
    void noActiveReplicaAtAll_isLeaderlessEvenWhenUncleanIsAllowed() {
        PartitionState p = partition(ints(1), ints(2));

        FailoverElection.Result r = FailoverElection.elect(
                p,
                cluster(p, BrokerState.fenced(1), BrokerState.fenced(2), BrokerState.fenced(3)),
                ASSIGNMENT,
                true,
                true);

        assertThat(r.hasLeader()).isFalse();
    }
}
