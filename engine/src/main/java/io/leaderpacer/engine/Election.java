package io.leaderpacer.engine;

import io.leaderpacer.engine.cluster.PartitionId;

/**
 * One leader change the run decided.
 *
 * @param partition       the partition
 * @param previousLeader  its leader before, or -1
 * @param newLeader       its leader after
 * @param preferredBroker its effective preferred replica (the round-robin bucket it came from);
 *                        differs from {@code newLeader} only when the preferred replica could not
 *                        lead and the current leader was not valid either
 */
public record Election(PartitionId partition, int previousLeader, int newLeader, int preferredBroker) {

    /** Whether leadership goes to the preferred replica. */
    public boolean toPreferred() {
        return newLeader == preferredBroker;
    }
}
