package io.leaderpacer.engine.cluster;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Hand-worked: what the follower replays, and when it rebuilds instead. */
class SnapshotFollowerTest {

    private static int[] ints(int... v) {
        return v;
    }

    private static ClusterSnapshot.Builder threePartitions() {
        return ClusterSnapshot.builder().broker(BrokerState.active(0)).broker(BrokerState.active(1))
                .partition(PartitionState.of("t", 0, ints(0, 1), ints(0, 1), 0))
                .partition(PartitionState.of("t", 1, ints(1, 0), ints(0, 1), 0))
                .partition(PartitionState.of("t", 2, ints(0, 1), ints(0, 1), 1));
    }

    @Test
    void firstRead_rebuilds() {
        SnapshotFollower f = new SnapshotFollower();

        ClusterState s = f.follow(threePartitions().build());

        assertThat(f.lastStep().rebuilt()).isTrue();
        assertThat(s.partitionCount()).isEqualTo(3);
    }

    @Test
    void sameRead_replaysNothing_andKeepsTheState() {
        SnapshotFollower f = new SnapshotFollower();
        ClusterState first = f.follow(threePartitions().build());

        ClusterState second = f.follow(threePartitions().build());

        assertThat(second).isSameAs(first);
        assertThat(f.lastStep()).isEqualTo(new SnapshotFollower.Step(false, 0, 0));
    }

    @Test
    void oneLeaderAndOneBrokerChanged_replaysExactlyThose() {
        SnapshotFollower f = new SnapshotFollower();
        f.follow(threePartitions().build());
        ClusterSnapshot next = ClusterSnapshot.builder().broker(BrokerState.active(0)).broker(BrokerState.fenced(1))
                .partition(PartitionState.of("t", 0, ints(0, 1), ints(0, 1), 0))
                .partition(PartitionState.of("t", 1, ints(1, 0), ints(0), 0))
                .partition(PartitionState.of("t", 2, ints(0, 1), ints(0, 1), 1)).build();

        ClusterState s = f.follow(next);

        assertThat(f.lastStep()).isEqualTo(new SnapshotFollower.Step(false, 1, 1));
        assertThat(s.isActiveAt(s.brokerIndexOf(1))).isFalse();
        assertThat(s.partitionAt(1)).isEqualTo(next.partitions().get(1));
    }

    @Test
    void newPartitionOrRemovedBroker_rebuildsInTheReadsOrder() {
        SnapshotFollower f = new SnapshotFollower();
        f.follow(threePartitions().build());

        ClusterState grown = f.follow(threePartitions().partition(PartitionState.of("s", 0, ints(1, 0), ints(0, 1), 0)).build());
        assertThat(f.lastStep().rebuilt()).isTrue();
        assertThat(grown.partitionAt(3).id()).isEqualTo(new PartitionId("s", 0));

        f.follow(ClusterSnapshot.builder().broker(BrokerState.active(0))
                .partition(PartitionState.of("t", 0, ints(0), ints(0), 0)).build());
        assertThat(f.lastStep().rebuilt()).isTrue();
    }
}
