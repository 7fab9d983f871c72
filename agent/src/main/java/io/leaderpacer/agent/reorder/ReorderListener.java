package io.leaderpacer.agent.reorder;

import java.util.List;

/**
 * Told at the two points where a crash matters: after the write-ahead records are durable, and after Kafka
 * accepted the reorder-only reassignments (before they are confirmed and the records updated).
 *
 * <p>Why it exists: these are the points an operator may want to count or trace, and the points where the
 * crash-safety tests stop the step (by throwing) to prove that the next run converges.
 */
public interface ReorderListener {

    /** A listener that does nothing. */
    ReorderListener NONE = new ReorderListener() {
    };

    /** The write-ahead records of these moves are durable; no reassignment has been issued for them yet. */
    default void writeAheadDurable(List<ReorderMove> moves) throws Exception {
    }

    /** Kafka completed these reorder-only reassignments; their records are not yet updated. */
    default void reassigned(List<ReorderMove> moves) throws Exception {
    }
}
