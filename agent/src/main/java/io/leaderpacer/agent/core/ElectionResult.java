package io.leaderpacer.agent.core;

import io.leaderpacer.engine.cluster.PartitionId;

import java.util.Objects;

/**
 * One partition's election as decided and as Kafka answered.
 *
 * @param partition      the partition
 * @param previousLeader its leader when the cluster was read, or -1
 * @param targetLeader   the leader the engine chose
 * @param outcome        what Kafka reported
 * @param detail         Kafka's error message, or empty (never a secret: errors are scrubbed)
 */
public record ElectionResult(
        PartitionId partition, int previousLeader, int targetLeader, ElectionOutcome outcome, String detail) {

    public ElectionResult {
        Objects.requireNonNull(partition, "partition");
        Objects.requireNonNull(outcome, "outcome");
        detail = detail == null ? "" : detail;
    }
}
