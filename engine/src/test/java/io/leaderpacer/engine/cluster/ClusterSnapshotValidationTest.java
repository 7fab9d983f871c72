package io.leaderpacer.engine.cluster;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Malformed snapshots are refused with an exception naming the partition (or broker) and what is
 * wrong, never turned into a decision.
 */
class ClusterSnapshotValidationTest {

    private static int[] ints(int... v) {
        return v;
    }

    @Test
    void duplicateReplica_isRefusedNamingThePartitionAndTheBroker() {
        assertThatThrownBy(() -> PartitionState.of("orders", 7, ints(1, 2, 1), ints(1, 2), 1))
                .isInstanceOf(InvalidSnapshotException.class)
                .hasMessageContaining("orders-7")
                .hasMessageContaining("broker 1 appears twice")
                .hasMessageContaining("[1, 2, 1]");
    }

    @Test
    void leaderNotAReplica_isRefusedNamingThePartitionAndTheLeader() {
        assertThatThrownBy(() -> PartitionState.of("orders", 3, ints(1, 2, 3), ints(1, 2, 3), 4))
                .isInstanceOf(InvalidSnapshotException.class)
                .hasMessageContaining("orders-3")
                .hasMessageContaining("leader 4")
                .hasMessageContaining("[1, 2, 3]");
    }

    @Test
    void isrMemberNotAReplica_isRefused() {
        assertThatThrownBy(() -> PartitionState.of("orders", 0, ints(1, 2), ints(1, 5), 1))
                .isInstanceOf(InvalidSnapshotException.class)
                .hasMessageContaining("orders-0")
                .hasMessageContaining("isr member 5");
    }

    @Test
    void duplicateIsrMember_isRefused() {
        assertThatThrownBy(() -> PartitionState.of("orders", 0, ints(1, 2), ints(2, 2), 1))
                .isInstanceOf(InvalidSnapshotException.class)
                .hasMessageContaining("orders-0")
                .hasMessageContaining("twice in isr");
    }

    @Test
    void brokerInBothIsrAndElr_isRefused() {
        assertThatThrownBy(() -> new PartitionState(
                        new PartitionId("orders", 0), ints(1, 2, 3), ints(1, 2), ints(2), 1, false, false))
                .isInstanceOf(InvalidSnapshotException.class)
                .hasMessageContaining("orders-0")
                .hasMessageContaining("both isr");
    }

    @Test
    void emptyReplicaList_isRefused() {
        assertThatThrownBy(() -> PartitionState.of("orders", 0, ints(), ints(), -1))
                .isInstanceOf(InvalidSnapshotException.class)
                .hasMessageContaining("orders-0");
    }

    @Test
    void negativeBrokerId_isRefused() {
        assertThatThrownBy(() -> PartitionState.of("orders", 0, ints(1, -2), ints(1), 1))
                .isInstanceOf(InvalidSnapshotException.class)
                .hasMessageContaining("orders-0")
                .hasMessageContaining("-2");
    }

    @Test
    void unknownBrokerInIsr_isRefusedNamingThePartitionAndTheBroker() {
        ClusterSnapshot.Builder b = ClusterSnapshot.builder()
                .activeBrokers(3)
                .partition(PartitionState.of("orders", 1, ints(0, 1, 7), ints(0, 7), 0));

        assertThatThrownBy(b::build)
                .isInstanceOf(InvalidSnapshotException.class)
                .hasMessageContaining("orders-1")
                .hasMessageContaining("isr member 7")
                .hasMessageContaining("not a registered broker");
    }

    @Test
    void duplicatePartition_isRefusedNamingIt() {
        ClusterSnapshot.Builder b = ClusterSnapshot.builder()
                .activeBrokers(3)
                .partition(PartitionState.of("orders", 1, ints(0, 1), ints(0, 1), 0))
                .partition(PartitionState.of("orders", 1, ints(1, 2), ints(1, 2), 1));

        assertThatThrownBy(b::build)
                .isInstanceOf(InvalidSnapshotException.class)
                .hasMessageContaining("orders-1")
                .hasMessageContaining("twice");
    }

    @Test
    void brokerRegisteredTwiceWithDifferentStates_isRefused() {
        ClusterSnapshot.Builder b = ClusterSnapshot.builder().broker(BrokerState.active(1));

        assertThatThrownBy(() -> b.broker(BrokerState.fenced(1)))
                .isInstanceOf(InvalidSnapshotException.class)
                .hasMessageContaining("broker 1");
    }

    @Test
    void unregisteredReplicaOutsideTheIsr_isAcceptedAndInactive() {
        ClusterSnapshot s = ClusterSnapshot.builder()
                .activeBrokers(2)
                .partition(PartitionState.of("orders", 0, ints(0, 1, 9), ints(0, 1), 0))
                .build();

        assertThat(s.isActive(9)).isFalse();
        assertThat(s.isRegistered(9)).isFalse();
        assertThat(s.brokerIndex().indexOf(9)).as("indexed after 0 and 1").isEqualTo(2);
    }

    @Test
    void brokerLiveness_fencedAndShuttingDownAreInactive() {
        ClusterSnapshot s = ClusterSnapshot.builder()
                .broker(BrokerState.active(0))
                .broker(BrokerState.fenced(1))
                .broker(BrokerState.shuttingDown(2))
                .build();

        assertThat(s.isActive(0)).isTrue();
        assertThat(s.isActive(1)).isFalse();
        assertThat(s.isActive(2)).isFalse();
        assertThat(s.isActive(-1)).isFalse();
    }

    @Test
    void partitionState_isImmutable_arraysAreCopiedInAndOut() {
        int[] replicas = ints(1, 2, 3);
        PartitionState p = PartitionState.of("orders", 0, replicas, ints(1, 2, 3), 1);
        replicas[0] = 9;
        p.replicas()[1] = 9;

        assertThat(p.replicas()).containsExactly(1, 2, 3);
    }

    @Test
    void partitionId_refusesEmptyTopicAndNegativeIndex() {
        assertThatThrownBy(() -> new PartitionId("", 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new PartitionId("orders", -1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("orders");
    }

    @Test
    void snapshot_keepsThePartitionIterationOrder() {
        ClusterSnapshot s = ClusterSnapshot.builder()
                .activeBrokers(2)
                .partition(PartitionState.of("b", 0, ints(0, 1), ints(0, 1), 0))
                .partition(PartitionState.of("a", 0, ints(0, 1), ints(0, 1), 0))
                .build();

        assertThat(s.partitions()).extracting(p -> p.id().topic()).containsExactly("b", "a");
    }
}
