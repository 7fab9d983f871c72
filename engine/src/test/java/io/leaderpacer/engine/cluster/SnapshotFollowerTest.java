package io.leaderpacer.engine.cluster;

import org.junit.jupiter.api.Test;

import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** Hand-worked: what the follower replays, and when it rebuilds instead. */
class SnapshotFollowerTest {

    private static int[] ints(int... v) {
        return v;
    }

    private static ClusterSnapshot.Builder threePartitions() {
        return ClusterSnapshot.builder()
                .broker(BrokerState.active(0))
                .broker(BrokerState.active(1))
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
        ClusterSnapshot next = ClusterSnapshot.builder()
                .broker(BrokerState.active(0))
                .broker(BrokerState.fenced(1))
                .partition(PartitionState.of("t", 0, ints(0, 1), ints(0, 1), 0))
                .partition(PartitionState.of("t", 1, ints(1, 0), ints(0), 0))
                .partition(PartitionState.of("t", 2, ints(0, 1), ints(0, 1), 1))
                .build();

        ClusterState s = f.follow(next);

        assertThat(f.lastStep()).isEqualTo(new SnapshotFollower.Step(false, 1, 1));
        assertThat(s.isActiveAt(s.brokerIndexOf(1))).isFalse();
        assertThat(s.partitionAt(1)).isEqualTo(next.partitions().get(1));
    }

    @Test
    void newPartitionOrRemovedBroker_rebuildsInTheReadsOrder() {
        SnapshotFollower f = new SnapshotFollower();
        f.follow(threePartitions().build());

        ClusterState grown = f.follow(threePartitions()
                .partition(PartitionState.of("s", 0, ints(1, 0), ints(0, 1), 0))
                .build());
        assertThat(f.lastStep().rebuilt()).isTrue();
        assertThat(grown.partitionAt(3).id()).isEqualTo(new PartitionId("s", 0));

        f.follow(ClusterSnapshot.builder()
                .broker(BrokerState.active(0))
                .partition(PartitionState.of("t", 0, ints(0), ints(0), 0))
                .build());
        assertThat(f.lastStep().rebuilt()).isTrue();
    }

    /** Topic t as above, and topic u with one partition led by broker 1. */
    private static ClusterSnapshot.Builder twoTopics() {
        return threePartitions().partition(PartitionState.of("u", 0, ints(1, 0), ints(0, 1), 1));
    }

    @Test
    void partialRead_replaysItsTopicsOnly_andKeepsTheRestAsLastRead() {
        SnapshotFollower f = new SnapshotFollower();
        ClusterState first = f.follow(twoTopics().build());
        ClusterSnapshot now = ClusterSnapshot.builder()
                .broker(BrokerState.active(0))
                .broker(BrokerState.active(1))
                .partition(PartitionState.of("t", 0, ints(0, 1), ints(0, 1), 0))
                .partition(PartitionState.of("t", 1, ints(1, 0), ints(0, 1), 1))
                .partition(PartitionState.of("t", 2, ints(0, 1), ints(0, 1), 1))
                .partition(PartitionState.of("u", 0, ints(1, 0), ints(0), 0))
                .build();

        ClusterState s = f.followPartial(PartialRead.of(now, Set.of("t"))).orElseThrow();

        assertThat(s).isSameAs(first);
        assertThat(f.lastStep()).isEqualTo(new SnapshotFollower.Step(false, 1, 0));
        assertThat(s.partitionAt(1)).isEqualTo(now.partitions().get(1));
        assertThat(s.partitionAt(3))
                .as("u was not read")
                .isEqualTo(twoTopics().build().partitions().get(3));
    }

    @Test
    void partialRead_itCannotFollow_isRefused_andChangesNothing() {
        SnapshotFollower f = new SnapshotFollower();
        PartialRead same = PartialRead.of(twoTopics().build(), Set.of("u"));
        assertThat(f.followPartial(same)).as("no full read yet").isEmpty();
        ClusterState state = f.follow(twoTopics().build());
        String before = state.snapshot().toString();

        ClusterSnapshot brokerFenced = ClusterSnapshot.builder()
                .broker(BrokerState.active(0))
                .broker(BrokerState.fenced(1))
                .partition(PartitionState.of("u", 0, ints(1, 0), ints(0), 0))
                .build();
        assertThat(f.followPartial(PartialRead.of(brokerFenced, Set.of("u"))))
                .as("a broker changed")
                .isEmpty();
        ClusterSnapshot grown = twoTopics()
                .partition(PartitionState.of("u", 1, ints(0, 1), ints(0, 1), 0))
                .build();
        assertThat(f.followPartial(PartialRead.of(grown, Set.of("u"))))
                .as("u grew")
                .isEmpty();
        ClusterSnapshot deleted = threePartitions().build();
        assertThat(f.followPartial(PartialRead.of(deleted, Set.of("u"))))
                .as("u deleted")
                .isEmpty();
        ClusterSnapshot created = twoTopics()
                .partition(PartitionState.of("v", 0, ints(0, 1), ints(0, 1), 0))
                .build();
        assertThat(f.followPartial(PartialRead.of(created, Set.of("v"))))
                .as("v is new")
                .isEmpty();

        assertThat(state.snapshot().toString()).isEqualTo(before);
        assertThat(f.followPartial(same)).as("the same read still follows").contains(state);
    }
}
