package io.leaderpacer.agent.reorder;

import io.leaderpacer.engine.cluster.PartitionId;

import java.util.List;

/**
 * A reordered partition whose replica set someone else changed (a real reassignment, a replication-factor
 * change): its stored original no longer describes it, so the agent leaves it alone, drops the record and
 * reports this.
 *
 * @param record  the record the agent held
 * @param current the replica list found in the cluster
 */
public record ReplicaSetConflict(OrderRecord record, List<Integer> current) {

    public ReplicaSetConflict {
        current = List.copyOf(current);
    }

    public PartitionId partition() {
        return record.partition();
    }

    /** One line for logs and reports. */
    public String describe() {
        return "partition " + partition() + ": replica set changed by someone else (stored original "
                + record.original() + ", agent's order " + record.reordered() + ", now " + current
                + "); left alone, its stored original dropped";
    }
}
