package io.leaderpacer.engine.cluster;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The incremental state, by hand: what a replay changes in the counts and the candidate set. */
class ClusterStateTest {

    private static int[] ints(int... v) {
        return v;
    }

    private static ClusterState threeBrokers() {
        ClusterState s = new ClusterState();
        s.replay(BrokerState.active(0));
        s.replay(BrokerState.active(1));
        s.replay(BrokerState.active(2));
        return s;
    }

    @Test
    void leaderMovingAwayAndBack_addsAndRemovesTheCandidate() {
        ClusterState s = threeBrokers();
        s.replay(PartitionState.of("t", 0, ints(0, 1, 2), ints(0, 1, 2), 0));
        assertThat(s.nextCandidate(0)).isEqualTo(-1);

        s.replay(PartitionState.of("t", 0, ints(0, 1, 2), ints(1, 2), 1));
        assertThat(s.nextCandidate(0)).isZero();
        assertThat(s.counts().imbalanced()[s.brokerIndexOf(0)]).isEqualTo(1);
        assertThat(s.counts().outOfSync()[s.brokerIndexOf(0)]).isEqualTo(1);

        s.replay(PartitionState.of("t", 0, ints(0, 1, 2), ints(0, 1, 2), 0));
        assertThat(s.nextCandidate(0)).isEqualTo(-1);
        assertThat(s.counts().imbalancedCount()).isZero();
        assertThat(s.counts().total()[s.brokerIndexOf(0)]).isEqualTo(1);
    }

    @Test
    void removedPartition_leavesAnEmptyPosition_andNoCounts() {
        ClusterState s = threeBrokers();
        s.replay(PartitionState.of("t", 0, ints(0, 1), ints(0, 1), 1));
        s.replay(PartitionState.of("t", 1, ints(1, 0), ints(0, 1), 0));

        s.remove(new PartitionId("t", 0));

        assertThat(s.partitionAt(0)).isNull();
        assertThat(s.nextCandidate(0)).isEqualTo(1);
        assertThat(s.counts().total()[s.brokerIndexOf(0)]).isZero();
        assertThat(s.snapshot().partitions())
                .extracting(p -> p.id().partition())
                .containsExactly(1);
    }

    @Test
    void isrMemberNotRegistered_isRefused_andTheStateIsUnchanged() {
        ClusterState s = threeBrokers();
        s.replay(PartitionState.of("t", 0, ints(0, 1), ints(0, 1), 1));

        assertThatThrownBy(() -> s.replay(PartitionState.of("t", 0, ints(0, 9), ints(0, 9), 9)))
                .isInstanceOf(InvalidSnapshotException.class)
                .hasMessageContaining("isr member 9");
        assertThat(s.partition(new PartitionId("t", 0)).leader()).isEqualTo(1);
        assertThat(s.nextCandidate(0)).isZero();
    }

    @Test
    void brokerIdsAnywhereInTheRange_areIndexedInTheOrderFirstNamed() {
        ClusterState s = new ClusterState();
        s.replay(BrokerState.active(Integer.MAX_VALUE));
        s.replay(BrokerState.fenced(7));
        s.replay(PartitionState.of("t", 0, ints(100_000_000, 7, Integer.MAX_VALUE), ints(7), 7));

        assertThat(s.brokerIndexOf(Integer.MAX_VALUE)).isZero();
        assertThat(s.brokerIndexOf(100_000_000)).isEqualTo(2);
        assertThat(s.isActive(7)).isFalse();
        assertThat(s.isActive(100_000_000)).as("named as a replica only").isFalse();
        assertThat(s.registeredBrokerIds()).containsExactly(7, Integer.MAX_VALUE);
    }

    @Test
    void fencedLeader_makesTheCandidatesItLeadsOutOfTheirPreferredsSyncWorthALook_untilItIsBack() {
        ClusterState s = threeBrokers();
        s.replay(PartitionState.of("t", 0, ints(0, 1, 2), ints(1, 2), 1));
        assertThat(s.nextCandidate(0)).isZero();
        assertThat(s.candidates().nextToExamine(0))
                .as("its leader is valid: nothing to do")
                .isEqualTo(-1);

        s.replay(BrokerState.fenced(1));
        assertThat(s.candidates().nextToExamine(0)).isZero();
        assertThat(s.candidates().nextToEvaluate(0)).isZero();

        s.replay(BrokerState.active(1));
        assertThat(s.candidates().nextToExamine(0)).isEqualTo(-1);
        assertThat(s.candidates().nextToEvaluate(0)).isEqualTo(-1);
    }

    @Test
    void partitionMovedToAnotherFirstReplica_takesItsPlaceInThatBrokersBucketInPositionOrder() {
        ClusterState s = threeBrokers();
        s.replay(PartitionState.of("t", 0, ints(1, 0), ints(0, 1), 0));
        s.replay(PartitionState.of("t", 1, ints(0, 1), ints(0, 1), 1));
        s.replay(PartitionState.of("t", 2, ints(1, 0), ints(0, 1), 0));
        int one = s.brokerIndexOf(1);
        assertThat(bucket(s, one)).containsExactly(0, 2);

        s.replay(PartitionState.of("t", 1, ints(1, 0), ints(0, 1), 0));

        assertThat(bucket(s, one)).containsExactly(0, 1, 2);
        assertThat(s.candidates().bucketSize(s.brokerIndexOf(0))).isZero();
        assertThat(s.candidates().countThrough(1)).isEqualTo(2);
    }

    @Test
    void partitionIndexFarBeyondItsTopicsOthers_isKeptFoundAndRemoved() {
        ClusterState s = threeBrokers();
        s.replay(PartitionState.of("t", 0, ints(0, 1), ints(0, 1), 0));
        s.replay(PartitionState.of("t", 2_000_000_000, ints(0, 1), ints(0, 1), 1));

        assertThat(s.partition(new PartitionId("t", 2_000_000_000)).leader()).isEqualTo(1);
        assertThat(s.partitionCount()).isEqualTo(2);

        s.remove(new PartitionId("t", 2_000_000_000));
        assertThat(s.partition(new PartitionId("t", 2_000_000_000))).isNull();
        assertThat(s.partitionCount()).isEqualTo(1);
    }

    private static List<Integer> bucket(ClusterState s, int broker) {
        List<Integer> positions = new ArrayList<>();
        CandidateIndex c = s.candidates();
        for (int slot = c.nextBucketSlot(broker, 0); slot >= 0; slot = c.nextBucketSlot(broker, slot + 1)) {
            positions.add(c.bucketPosition(broker, slot));
        }
        return positions;
    }
}
