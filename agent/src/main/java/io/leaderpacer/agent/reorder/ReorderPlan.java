package io.leaderpacer.agent.reorder;

import io.leaderpacer.engine.cluster.PartitionId;

import java.util.List;

/**
 * What one run of the step must do, decided from the snapshot, the deprioritized list and the stored records
 * alone. Empty lists mean nothing to do.
 *
 * @param moves         reorder-only reassignments, each with its write-ahead record (reorders and restores)
 * @param confirmations records to rewrite as {@link ReorderStatus#REORDERED}: the cluster already has their order
 * @param restored      partitions already back in their original order whose records can be dropped
 * @param conflicts     reordered partitions whose replica set someone else changed: left alone, record dropped
 * @param absent        stored partitions missing from the snapshot (deleted topic?): to be checked, then dropped
 * @param skipped       partitions that need attention but are under reassignment, being deleted, or whose
 *                      record is unreadable: left alone this run
 */
public record ReorderPlan(
        List<ReorderMove> moves,
        List<OrderRecord> confirmations,
        List<PartitionId> restored,
        List<ReplicaSetConflict> conflicts,
        List<PartitionId> absent,
        List<PartitionId> skipped) {

    public ReorderPlan {
        moves = List.copyOf(moves);
        confirmations = List.copyOf(confirmations);
        restored = List.copyOf(restored);
        conflicts = List.copyOf(conflicts);
        absent = List.copyOf(absent);
        skipped = List.copyOf(skipped);
    }

    /** Whether the run has nothing to write and nothing to reassign. */
    public boolean isEmpty() {
        return moves.isEmpty()
                && confirmations.isEmpty()
                && restored.isEmpty()
                && conflicts.isEmpty()
                && absent.isEmpty();
    }
}
