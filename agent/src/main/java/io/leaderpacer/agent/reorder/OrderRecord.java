package io.leaderpacer.agent.reorder;

import io.leaderpacer.engine.cluster.PartitionId;

import java.util.HashSet;
import java.util.List;
import java.util.Objects;

/**
 * One partition's entry in the state topic: the replica order it had before the agent first touched it, and the
 * order the agent moved it to.
 *
 * <p>Why: the original order belongs to the operator and exists nowhere else once the partition is reordered, so
 * it is written down before the reassignment and kept until it has been put back.
 *
 * @param partition the topic partition (the record's key)
 * @param original  the assignment order before the agent's first reorder; restored exactly
 * @param reordered the order the agent moved (or is moving) the partition to
 * @param status    where the cycle stands
 */
public record OrderRecord(
        PartitionId partition, List<Integer> original, List<Integer> reordered, ReorderStatus status) {

    public OrderRecord {
        Objects.requireNonNull(partition, "partition");
        Objects.requireNonNull(status, "status");
        original = List.copyOf(original);
        reordered = List.copyOf(reordered);
        if (original.isEmpty()) {
            throw new IllegalArgumentException("partition " + partition + ": original replica list is empty");
        }
        if (new HashSet<>(original).size() != original.size()) {
            throw new IllegalArgumentException(
                    "partition " + partition + ": original replica list " + original + " names a broker twice");
        }
        if (!sameSet(original, reordered)) {
            throw new IllegalArgumentException("partition " + partition + ": reordered " + reordered
                    + " is not a reordering of original " + original);
        }
    }

    /** A copy with another target order and status (the original never changes while the record lives). */
    public OrderRecord moving(List<Integer> newReordered, ReorderStatus newStatus) {
        return new OrderRecord(partition, original, newReordered, newStatus);
    }

    /** A copy with another status. */
    public OrderRecord withStatus(ReorderStatus newStatus) {
        return new OrderRecord(partition, original, reordered, newStatus);
    }

    /** Whether the given replicas are the same brokers as the original, in any order. */
    public boolean sameReplicaSet(List<Integer> replicas) {
        return sameSet(original, replicas);
    }

    static boolean sameSet(List<Integer> a, List<Integer> b) {
        return a.size() == b.size() && new HashSet<>(a).equals(new HashSet<>(b));
    }
}
