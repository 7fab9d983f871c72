package io.leaderpacer.engine.cluster;

import org.junit.jupiter.api.Test;

import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** Hand-worked: the topics a re-check must read. */
class ReadScopeTest {

    private static final Set<Integer> PLAIN = Set.of();

    private static int[] ints(int... v) {
        return v;
    }

    /** Four topics on brokers 0-2: a on 0 and 1; b on 1 and 2, led by its preferred 1; c on 1 and 2, led by 2; d on 2 and 0. */
    private static ClusterState cluster() {
        return ClusterState.of(ClusterSnapshot.builder()
                .activeBrokers(3)
                .partition(PartitionState.of("a", 0, ints(0, 1), ints(0, 1), 0))
                .partition(PartitionState.of("b", 0, ints(1, 2), ints(1, 2), 1))
                .partition(PartitionState.of("c", 0, ints(1, 2), ints(1, 2), 2))
                .partition(PartitionState.of("c", 1, ints(2, 1), ints(1, 2), 2))
                .partition(PartitionState.of("d", 0, ints(2, 0), ints(2), 2))
                .build());
    }

    @Test
    void recoveringBroker_scopeIsItsTopics_andTheImbalancedOnes() {
        assertThat(ReadScope.topics(cluster(), Set.of(0), PLAIN)).containsExactly("a", "c", "d");
    }

    @Test
    void noRecoveringBroker_scopeIsTheImbalancedTopicsOnly() {
        assertThat(ReadScope.topics(cluster(), Set.of(), PLAIN)).containsExactly("c");
    }

    @Test
    void everyBrokerRecovering_scopeIsEveryTopic() {
        assertThat(ReadScope.topics(cluster(), Set.of(0, 1, 2), PLAIN)).containsExactly("a", "b", "c", "d");
    }

    @Test
    void deprioritizedFirstReplicaThatLeads_isImbalancedInEffectiveOrder_soItsTopicIsRead() {
        // b-0 is led by its first replica 1; with 1 deprioritized its preferred leader is 2, so b is a candidate.
        assertThat(ReadScope.topics(cluster(), Set.of(), Set.of(1))).containsExactly("b", "c");
    }
}
