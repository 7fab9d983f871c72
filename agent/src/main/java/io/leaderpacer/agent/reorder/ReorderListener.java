package io.leaderpacer.agent.reorder;

import java.util.List;

/**
 * Told at the three points of a batch where a crash matters: after the write-ahead records are durable, after
 * Kafka accepted the reorder-only reassignments (before the records are updated), and after the confirmation is
 * durable (records marked {@code REORDERED}, or dropped for a restore; before any election).
 *
 * <p>Why it exists: these are the points an operator may want to count or trace, and the points where the
 * crash-safety tests stop the step (by throwing) to prove that the next run converges.
 */
public interface ReorderListener {

    /** A listener that does nothing. */
    ReorderListener NONE = new ReorderListener() {};

    /** The write-ahead records of these moves are durable; no reassignment has been issued for them yet. */
    default void writeAheadDurable(List<ReorderMove> moves) throws Exception {}

    /** Kafka completed these reorder-only reassignments; their records are not yet updated. */
    default void reassigned(List<ReorderMove> moves) throws Exception {}

    /**
     * The brokers' metadata showed these moves in their target order and their records are durably updated: a
     * reorder's record is {@code REORDERED}, a restore's record is dropped. Moves not yet seen in the metadata are
     * left to the next run and are not in the list. No election has been made for this batch yet.
     */
    default void confirmed(List<ReorderMove> moves) throws Exception {}
}
