package io.leaderpacer.agent.core;

import io.leaderpacer.engine.cluster.ClusterSnapshot;
import io.leaderpacer.engine.config.PacerConfig;

/**
 * A step that runs before each decision to make the cluster's replica order match the effective order the
 * engine must use (KIP-491 deprioritized brokers last).
 *
 * <p>Why it exists: Kafka has no deprioritized list, so the agent applies it itself with reorder-only partition
 * reassignments (same replica set, new order) and then lets the paced preferred elections move leadership. The
 * control loop does not know how the reorder and its write-ahead restore work; it only calls this step and
 * decides on the snapshot it returns.
 *
 * <p>Contract: {@link #apply} performs the reorders it needs and returns the snapshot as the engine must see
 * it, that is with the replica lists in their new order. When there is nothing to do it returns the given
 * snapshot unchanged. An exception fails the run (the engine's failure schedule then applies); nothing is
 * elected on a snapshot the step could not produce.
 */
@FunctionalInterface
public interface ReplicaOrderStep {

    /** The step for an agent without a deprioritized list: the snapshot is used as read. */
    ReplicaOrderStep IDENTITY = (snapshot, config) -> snapshot;

    /**
     * Brings the replica order in line with the effective order and returns the snapshot to decide on.
     *
     * @param snapshot the cluster as just read
     * @param config   the effective policy configuration for this run
     * @return the snapshot with replica lists in the order the engine must use; {@code snapshot} itself when
     *         nothing changed
     * @throws Exception when the reorder could not be performed or recorded
     */
    ClusterSnapshot apply(ClusterSnapshot snapshot, PacerConfig config) throws Exception;
}
