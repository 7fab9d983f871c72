package io.leaderpacer.agent.reorder;

/**
 * Where a partition stands in its reorder / restore cycle, as stored in the state topic.
 *
 * <p>Why it is stored: after a crash the next run must know whether the reassignment it had announced may still
 * be missing. The planner does not need the status to converge (it compares the replica set and order it reads
 * with the stored original), so the status is there for operators reading the topic and for the confirmation
 * step, never as the only evidence.
 */
public enum ReorderStatus {
    /** Write-ahead: the original is stored and a reorder-only reassignment to {@code reordered} was (or is about to be) issued. */
    REORDERING,
    /** The cluster was seen with the {@code reordered} order. */
    REORDERED,
    /** Write-ahead: a reassignment back to {@code original} was (or is about to be) issued; the record goes once it is seen. */
    RESTORING
}
