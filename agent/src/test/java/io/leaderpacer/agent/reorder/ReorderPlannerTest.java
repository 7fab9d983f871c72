package io.leaderpacer.agent.reorder;

import io.leaderpacer.engine.cluster.ClusterSnapshot;
import io.leaderpacer.engine.cluster.PartitionId;
import io.leaderpacer.engine.cluster.PartitionState;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class ReorderPlannerTest {

    private static final PartitionId P0 = new PartitionId("t", 0);
    private static final PartitionId P1 = new PartitionId("t", 1);

    private static ClusterSnapshot cluster(PartitionState... partitions) {
        ClusterSnapshot.Builder b = ClusterSnapshot.builder().activeBrokers(4);
        for (PartitionState p : partitions) {
            b.partition(p);
        }
        return b.build();
    }

    private static PartitionState partition(PartitionId id, int... replicas) {
        return PartitionState.of(id.topic(), id.partition(), replicas, replicas, replicas[0]);
    }

    private static OrderRecord record(
            PartitionId id, List<Integer> original, List<Integer> reordered, ReorderStatus status) {
        return new OrderRecord(id, original, reordered, status);
    }

    private static ReorderPlan plan(ClusterSnapshot c, Set<Integer> list, OrderRecord... records) {
        Map<PartitionId, OrderRecord> byPartition = new HashMap<>();
        for (OrderRecord r : records) {
            byPartition.put(r.partition(), r);
        }
        return ReorderPlanner.plan(c, list, byPartition, Set.of());
    }

    @Test
    void noListAndNoRecords_plansNothing() {
        ReorderPlan plan = plan(cluster(partition(P0, 2, 0, 1)), Set.of());

        assertThat(plan.isEmpty()).isTrue();
        assertThat(plan.moves()).isEmpty();
    }

    @Test
    void deprioritizedBrokerFirst_isMovedLastWithOriginalWrittenAhead() {
        ReorderPlan plan = plan(cluster(partition(P0, 2, 0, 1), partition(P1, 0, 2, 1)), Set.of(2));

        assertThat(plan.moves()).extracting(ReorderMove::partition).containsExactly(P0, P1);
        ReorderMove first = plan.moves().get(0);
        assertThat(first.current()).containsExactly(2, 0, 1);
        assertThat(first.target()).containsExactly(0, 1, 2);
        assertThat(first.writeAhead())
                .isEqualTo(record(P0, List.of(2, 0, 1), List.of(0, 1, 2), ReorderStatus.REORDERING));
        assertThat(first.isRestore()).isFalse();
        assertThat(plan.moves().get(1).target()).containsExactly(0, 1, 2);
    }

    @Test
    void deprioritizedBrokerAlreadyLast_needsNoRecord() {
        ReorderPlan plan = plan(cluster(partition(P0, 0, 1, 2)), Set.of(2));

        assertThat(plan.isEmpty()).isTrue();
    }

    @Test
    void reorderedAndConfirmed_plansNothing() {
        ReorderPlan plan = plan(
                cluster(partition(P0, 0, 1, 2)),
                Set.of(2),
                record(P0, List.of(2, 0, 1), List.of(0, 1, 2), ReorderStatus.REORDERED));

        assertThat(plan.isEmpty()).isTrue();
    }

    @Test
    void crashAfterWriteAhead_reassignsAgainKeepingTheStoredOriginal() {
        ReorderPlan plan = plan(
                cluster(partition(P0, 2, 0, 1)),
                Set.of(2),
                record(P0, List.of(2, 0, 1), List.of(0, 1, 2), ReorderStatus.REORDERING));

        assertThat(plan.moves()).singleElement().satisfies(m -> {
            assertThat(m.target()).containsExactly(0, 1, 2);
            assertThat(m.writeAhead().original()).containsExactly(2, 0, 1);
        });
        assertThat(plan.confirmations()).isEmpty();
    }

    @Test
    void crashAfterReassignment_confirmsWithoutReassigning() {
        ReorderPlan plan = plan(
                cluster(partition(P0, 0, 1, 2)),
                Set.of(2),
                record(P0, List.of(2, 0, 1), List.of(0, 1, 2), ReorderStatus.REORDERING));

        assertThat(plan.moves()).isEmpty();
        assertThat(plan.confirmations())
                .containsExactly(record(P0, List.of(2, 0, 1), List.of(0, 1, 2), ReorderStatus.REORDERED));
    }

    @Test
    void brokerLeavesList_restoresStoredOriginalExactly() {
        ReorderPlan plan = plan(
                cluster(partition(P0, 0, 1, 2)),
                Set.of(),
                record(P0, List.of(2, 0, 1), List.of(0, 1, 2), ReorderStatus.REORDERED));

        assertThat(plan.moves()).singleElement().satisfies(m -> {
            assertThat(m.isRestore()).isTrue();
            assertThat(m.current()).containsExactly(0, 1, 2);
            assertThat(m.target()).containsExactly(2, 0, 1);
            assertThat(m.writeAhead().status()).isEqualTo(ReorderStatus.RESTORING);
        });
    }

    @Test
    void crashAfterRestore_dropsTheRecordOnly() {
        ReorderPlan plan = plan(
                cluster(partition(P0, 2, 0, 1)),
                Set.of(),
                record(P0, List.of(2, 0, 1), List.of(0, 1, 2), ReorderStatus.RESTORING));

        assertThat(plan.moves()).isEmpty();
        assertThat(plan.restored()).containsExactly(P0);
    }

    @Test
    void otherBrokerDeprioritizedInstead_targetComesFromTheOriginalNotTheCurrentOrder() {
        // original [2,0,1]; with {2} the agent made it [0,1,2]; now the list is {0}: effective of the ORIGINAL is
        // [2,1,0]
        ReorderPlan plan = plan(
                cluster(partition(P0, 0, 1, 2)),
                Set.of(0),
                record(P0, List.of(2, 0, 1), List.of(0, 1, 2), ReorderStatus.REORDERED));

        assertThat(plan.moves()).singleElement().satisfies(m -> {
            assertThat(m.target()).containsExactly(2, 1, 0);
            assertThat(m.writeAhead())
                    .isEqualTo(record(P0, List.of(2, 0, 1), List.of(2, 1, 0), ReorderStatus.REORDERING));
        });
    }

    @Test
    void listNoLongerAffectingOriginal_restoresEvenWithOtherBrokersListed() {
        ReorderPlan plan = plan(
                cluster(partition(P0, 0, 1, 2)),
                Set.of(3),
                record(P0, List.of(2, 0, 1), List.of(0, 1, 2), ReorderStatus.REORDERED));

        assertThat(plan.moves())
                .singleElement()
                .satisfies(m -> assertThat(m.target()).containsExactly(2, 0, 1));
    }

    @Test
    void replicaSetChangedBySomeoneElse_isAConflictAndLeftAlone() {
        ReorderPlan plan = plan(
                cluster(partition(P0, 3, 0, 1)),
                Set.of(2),
                record(P0, List.of(2, 0, 1), List.of(0, 1, 2), ReorderStatus.REORDERED));

        assertThat(plan.moves()).isEmpty();
        assertThat(plan.conflicts()).singleElement().satisfies(c -> {
            assertThat(c.partition()).isEqualTo(P0);
            assertThat(c.current()).containsExactly(3, 0, 1);
            assertThat(c.describe())
                    .contains("replica set changed")
                    .contains("[2, 0, 1]")
                    .contains("[3, 0, 1]");
        });
    }

    @Test
    void partitionUnderReassignment_isSkippedWithOrWithoutRecord() {
        ReorderPlan plan = plan(
                cluster(
                        partition(P0, 2, 0, 1).withReassigning(true),
                        partition(P1, 2, 3, 1).withReassigning(true)),
                Set.of(2),
                record(P1, List.of(2, 0, 1), List.of(0, 1, 2), ReorderStatus.REORDERED));

        assertThat(plan.moves()).isEmpty();
        assertThat(plan.conflicts()).isEmpty();
        assertThat(plan.skipped()).containsExactly(P0, P1);
    }

    @Test
    void recordOfPartitionMissingFromSnapshot_isAbsent() {
        ReorderPlan plan = plan(
                cluster(partition(P0, 0, 1, 2)),
                Set.of(2),
                record(new PartitionId("gone", 0), List.of(2, 0), List.of(0, 2), ReorderStatus.REORDERED));

        assertThat(plan.absent()).containsExactly(new PartitionId("gone", 0));
    }

    @Test
    void partitionWithUnreadableRecord_isLeftAlone() {
        ReorderPlan plan = ReorderPlanner.plan(cluster(partition(P0, 2, 0, 1)), Set.of(2), Map.of(), Set.of(P0));

        assertThat(plan.moves()).isEmpty();
        assertThat(plan.skipped()).containsExactly(P0);
    }
}
