package io.leaderpacer.engine.cluster;

/**
 * The per-partition facts every run asks of a position, packed in one byte: the snapshot's columns and the replayed
 * state keep the same byte, so that the two cannot disagree on what "in sync" or "guarded" means.
 */
final class PartitionFlags {

    static final byte FIRST_REPLICA_IN_ISR = 1;
    static final byte REASSIGNING = 2;
    static final byte DELETING = 4;
    static final byte LEADER_IN_ISR = 8;
    static final byte ISR_EMPTY = 16;
    static final byte IMBALANCED = 32;

    private PartitionFlags() {}

    /** The byte for a partition as it is now. */
    static byte of(PartitionState p) {
        int first = p.replicaAt(0);
        return (byte) ((p.isrContains(first) ? FIRST_REPLICA_IN_ISR : 0)
                | (p.reassigning() ? REASSIGNING : 0)
                | (p.topicDeleting() ? DELETING : 0)
                | (p.hasLeader() && p.isrContains(p.leader()) ? LEADER_IN_ISR : 0)
                | (p.isrIsEmpty() ? ISR_EMPTY : 0)
                | (p.leader() != first ? IMBALANCED : 0));
    }

    static boolean has(byte flags, byte bit) {
        return (flags & bit) != 0;
    }

    /** Being reassigned or its topic deleted: the preferred-leader task leaves it alone. */
    static boolean guarded(byte flags) {
        return (flags & (REASSIGNING | DELETING)) != 0;
    }
}
