package io.leaderpacer.agent.pacing;

import io.leaderpacer.engine.cluster.PartitionId;
import io.leaderpacer.engine.cluster.PartitionState;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ReplicaBytesTest {

    private static PartitionState partition(int p, int leader, int... replicas) {
        return new PartitionState(
                new PartitionId("t", p), replicas, replicas, new int[0], leader, false, false, new int[0]);
    }

    private static TopicPartition tp(int p) {
        return new TopicPartition("t", p);
    }

    /** t-0 led by 0, t-1 led by 1 (the broker looked at), t-2 led by 2 and not hosted by 1, t-3 leaderless. */
    private static final List<PartitionState> PARTITIONS = List.of(
            partition(0, 0, 0, 1, 2),
            partition(1, 1, 1, 0, 2),
            partition(2, 2, 2, 0),
            partition(3, PartitionState.NO_LEADER, 0, 1, 2));

    @Test
    void aBrokerThatDidNotAnswer_isUnknown() {
        assertThat(ReplicaBytes.of(1, Map.of(0, Map.of(tp(0), 100L)), PARTITIONS))
                .isEqualTo(ReplicaBytes.UNKNOWN);
    }

    @Test
    void behind_countsWhatTheLeadersOfItsFollowedPartitionsHoldBeyondIt_andNothingElse() {
        Map<Integer, Map<TopicPartition, Long>> sizes = Map.of(
                0, Map.of(tp(0), 1000L, tp(1), 400L, tp(2), 700L, tp(3), 900L),
                1, Map.of(tp(0), 250L, tp(1), 500L, tp(3), 10L),
                2, Map.of(tp(0), 1000L, tp(1), 500L, tp(2), 700L, tp(3), 900L));
        // hosted: 250 + 500 + 10; behind: t-0 only (1000 - 250). t-1 it leads, t-2 it does not host, t-3 has no
        // leader to be behind.
        assertThat(ReplicaBytes.of(1, sizes, PARTITIONS)).isEqualTo(new ReplicaBytes(760, 750));
    }

    @Test
    void aReplicaNotCreatedYet_countsAsEmpty_andAFollowerAheadOfItsLeaderIsNotNegative() {
        Map<Integer, Map<TopicPartition, Long>> sizes = Map.of(
                0, Map.of(tp(0), 300L),
                1, Map.of(),
                2, Map.of());
        assertThat(ReplicaBytes.of(1, sizes, PARTITIONS)).isEqualTo(new ReplicaBytes(0, 300));
        Map<Integer, Map<TopicPartition, Long>> ahead = Map.of(0, Map.of(tp(0), 300L), 1, Map.of(tp(0), 320L));
        assertThat(ReplicaBytes.of(1, ahead, PARTITIONS)).isEqualTo(new ReplicaBytes(320, 0));
    }

    @Test
    void behindByPartition_namesEachFollowedPartitionWhoseLeaderAnswered_andLeavesOutTheOthers() {
        Map<Integer, Map<TopicPartition, Long>> sizes = Map.of(
                0, Map.of(tp(0), 1000L, tp(1), 400L, tp(3), 900L),
                1, Map.of(tp(0), 1200L, tp(1), 500L, tp(3), 10L));
        List<PartitionState> followed = List.of(
                partition(0, 0, 0, 1, 2),
                partition(1, 1, 1, 0, 2),
                partition(2, 2, 2, 1),
                partition(3, PartitionState.NO_LEADER, 0, 1, 2),
                partition(4, 0, 0, 1));
        // t-0: larger than its leader's (see the next test); t-1 it leads; t-2's leader (2) did not answer; t-3 has no
        // leader; t-4 its leader does not host (yet): not known, so not close.
        assertThat(ReplicaBytes.behindByPartition(1, sizes, followed)).isEmpty();
        assertThat(ReplicaBytes.behindByPartition(2, sizes, followed)).isEmpty();
        Map<Integer, Map<TopicPartition, Long>> same = Map.of(0, Map.of(tp(0), 1000L), 1, Map.of(tp(0), 1000L));
        assertThat(ReplicaBytes.behindByPartition(1, same, followed)).containsOnly(Map.entry(tp(0), 0L));
        Map<Integer, Map<TopicPartition, Long>> behind = Map.of(0, Map.of(tp(0), 5000L), 1, Map.of());
        assertThat(ReplicaBytes.behindByPartition(1, behind, followed)).containsOnly(Map.entry(tp(0), 5000L));
    }

    @Test
    void aReplicaLargerThanItsLeader_isNotKnownToBeClose_sinceItMayHoldWhatTheLeaderDeletedOrCompacted() {
        // Broker 1 was away while its leader deleted 900 bytes of old segments and took 400 new ones: broker 1 still
        // holds the 1000 old bytes and lacks the 400 new. A difference of sizes reads "ahead"; it is 400 behind.
        Map<Integer, Map<TopicPartition, Long>> trimmed = Map.of(0, Map.of(tp(0), 500L), 1, Map.of(tp(0), 1000L));
        List<PartitionState> followed = List.of(partition(0, 0, 0, 1));
        assertThat(ReplicaBytes.behindByPartition(1, trimmed, followed))
                .as("not known: left throttled")
                .isEmpty();
    }
}
