package io.leaderpacer.agent.reorder;

import io.leaderpacer.engine.EffectiveReplicaOrder;
import io.leaderpacer.engine.cluster.ClusterSnapshot;
import io.leaderpacer.engine.cluster.PartitionId;
import io.leaderpacer.engine.cluster.PartitionState;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Decides which partitions to reorder, restore, confirm or forget, from what was read alone.
 *
 * <p>Why it is pure: the step must converge after a crash at any point, and the cases (record written but no
 * reassignment, reassignment done but record not updated, list changed in between, replica set changed by someone
 * else) are easiest to get right, and to test, as a function of the snapshot, the list and the stored records.
 *
 * <p>The rules, per partition with current replicas {@code R}:
 * <ul>
 *   <li>No record: if the effective order {@code E} of {@code R} differs from {@code R}, store {@code R} as the
 *       original and reorder to {@code E}.</li>
 *   <li>A record with original {@code O} and a different replica set than {@code R}: someone else changed the
 *       assignment; leave the partition alone and drop the record (a conflict). A later run treats the new
 *       assignment as a fresh original, as a controller with the list would.</li>
 *   <li>A record with the same set: the target is the effective order of {@code O} (never of {@code R}, which may
 *       already be the agent's own order). When the list no longer changes {@code O}, the target is {@code O}
 *       itself: restore it, or, when {@code R} already equals it (a crash after the restore), drop the record.
 *       Otherwise reorder to the target, or confirm it when {@code R} is already there.</li>
 * </ul>
 * While a record exists the agent owns the partition's order: an order-only change by someone else with the same
 * replica set cannot be told apart from the agent's own half-finished move, so it is brought back to the target.
 * Partitions under reassignment or being deleted are left alone until that ends.
 */
public final class ReorderPlanner {

    private ReorderPlanner() {}

    /**
     * Plans one run.
     *
     * @param cluster       the snapshot as read (replica lists in Kafka's current order)
     * @param deprioritized the KIP-491 list in force
     * @param records       the stored records by partition
     * @param unreadable    partitions whose stored record cannot be read: left alone
     */
    public static ReorderPlan plan(
            ClusterSnapshot cluster,
            Set<Integer> deprioritized,
            Map<PartitionId, OrderRecord> records,
            Set<PartitionId> unreadable) {
        EffectiveReplicaOrder order = EffectiveReplicaOrder.of(deprioritized);
        Draft draft = new Draft(order);
        Set<PartitionId> seen = new HashSet<>(Math.max(16, records.size() * 2));
        boolean listEmpty = deprioritized.isEmpty();

        for (PartitionState p : cluster.partitions()) {
            OrderRecord record = records.get(p.id());
            if (record == null && listEmpty && !unreadable.contains(p.id())) {
                continue; // the common case with no list: nothing to reorder, nothing to restore
            }
            if (record != null) {
                seen.add(p.id());
            }
            List<Integer> current = toList(p.replicas());
            if (unreadable.contains(p.id())) {
                draft.skipped.add(p.id());
                continue;
            }
            if (record == null) {
                draft.unowned(p, current);
            } else {
                draft.owned(p, record, current);
            }
        }

        List<PartitionId> absent = new ArrayList<>();
        new TreeMap<>(records).keySet().forEach(id -> {
            if (!seen.contains(id)) {
                absent.add(id);
            }
        });
        return new ReorderPlan(
                draft.moves, draft.confirmations, draft.restored, draft.conflicts, absent, draft.skipped);
    }

    /**
     * The plan as it grows, one partition at a time: the two kinds of partition (one the agent has no record of, one
     * whose order it owns) are decided by rules of their own.
     */
    private static final class Draft {
        private final EffectiveReplicaOrder order;
        private final List<ReorderMove> moves = new ArrayList<>();
        private final List<OrderRecord> confirmations = new ArrayList<>();
        private final List<PartitionId> restored = new ArrayList<>();
        private final List<ReplicaSetConflict> conflicts = new ArrayList<>();
        private final List<PartitionId> skipped = new ArrayList<>();

        Draft(EffectiveReplicaOrder order) {
            this.order = order;
        }

        /** No record: reordered when the list changes its order, unless it is moving or being deleted. */
        void unowned(PartitionState p, List<Integer> current) {
            List<Integer> effective = toList(order.order(p));
            if (effective.equals(current)) {
                return;
            }
            if (p.reassigning() || p.topicDeleting()) {
                skipped.add(p.id());
                return;
            }
            moves.add(new ReorderMove(
                    current, effective, new OrderRecord(p.id(), current, effective, ReorderStatus.REORDERING)));
        }

        /**
         * A record: the agent owns the order. Brought to the target the list gives the original order ({@code O}
         * itself once the list no longer changes it: a restore), confirmed when already there; a conflict when someone
         * changed the replica set.
         */
        void owned(PartitionState p, OrderRecord record, List<Integer> current) {
            if (p.reassigning() || p.topicDeleting()) {
                skipped.add(p.id());
                return;
            }
            if (!record.sameReplicaSet(current)) {
                conflicts.add(new ReplicaSetConflict(record, current));
                return;
            }
            List<Integer> target = effectiveOrderOf(p.id(), record.original(), order);
            if (target.equals(record.original())) {
                if (current.equals(target)) {
                    restored.add(p.id());
                } else {
                    moves.add(new ReorderMove(current, target, record.withStatus(ReorderStatus.RESTORING)));
                }
            } else if (current.equals(target)) {
                if (record.status() != ReorderStatus.REORDERED
                        || !record.reordered().equals(target)) {
                    confirmations.add(record.moving(target, ReorderStatus.REORDERED));
                }
            } else {
                moves.add(new ReorderMove(current, target, record.moving(target, ReorderStatus.REORDERING)));
            }
        }
    }

    /** The engine's effective order of a stored replica list (the engine's rule, not a copy of it). */
    static List<Integer> effectiveOrderOf(PartitionId id, List<Integer> replicas, EffectiveReplicaOrder order) {
        int[] array = replicas.stream().mapToInt(Integer::intValue).toArray();
        PartitionState asAssigned =
                PartitionState.of(id.topic(), id.partition(), array, new int[0], PartitionState.NO_LEADER);
        return toList(order.order(asAssigned));
    }

    static List<Integer> toList(int[] replicas) {
        List<Integer> out = new ArrayList<>(replicas.length);
        for (int r : replicas) {
            out.add(r);
        }
        return List.copyOf(out);
    }
}
