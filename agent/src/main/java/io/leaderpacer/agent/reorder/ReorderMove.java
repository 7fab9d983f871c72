package io.leaderpacer.agent.reorder;

import io.leaderpacer.engine.cluster.PartitionId;

import java.util.List;
import java.util.Objects;

/**
 * One reorder-only reassignment the step must make, with the state record that must be durable before it.
 *
 * @param current    the replica order read from the cluster
 * @param target     the order to reassign to (same brokers)
 * @param writeAhead the record to write before the reassignment is issued
 */
public record ReorderMove(List<Integer> current, List<Integer> target, OrderRecord writeAhead) {

    public ReorderMove {
        current = List.copyOf(current);
        target = List.copyOf(target);
        Objects.requireNonNull(writeAhead, "writeAhead");
        if (!OrderRecord.sameSet(current, target)) {
            throw new IllegalArgumentException("partition " + writeAhead.partition() + ": " + current + " -> " + target
                    + " is not a reorder-only move");
        }
    }

    public PartitionId partition() {
        return writeAhead.partition();
    }

    /** Whether this move puts the stored original back (rather than moving deprioritized brokers last). */
    public boolean isRestore() {
        return writeAhead.status() == ReorderStatus.RESTORING;
    }
}
