package io.leaderpacer.engine.cluster;

import java.util.SortedSet;

/**
 * What one run of the preferred-leader task reads from the cluster, whichever way the caller keeps it: an
 * immutable {@link ClusterSnapshot} built from a full read, or a {@link ClusterState} kept up to date by
 * replaying changes, as the controller keeps its own.
 *
 * <p>Why an interface: the run's decisions must not depend on how the state was obtained; the property tests
 * compare the two. Partitions are addressed by position (the candidate-iteration order) and brokers by a compact
 * index (an id may be anything up to 2^31-1), so the run's loops read primitive columns.
 */
public interface ClusterView {

    /** Number of partition positions; some may be empty ({@link #partitionAt} returns {@code null}). */
    int positionCount();

    /** The partition at a position, or {@code null} when the position is empty (a removed partition). */
    PartitionState partitionAt(int position);

    /** Whether the position is empty (a removed partition), read from the columns. */
    boolean isEmptyAt(int position);

    /** Whether the partition at a position is not led by its first assigned replica (Kafka's imbalance). */
    boolean imbalancedAt(int position);

    /** The leader of the partition at a position. */
    int leaderAt(int position);

    /** The broker index of the first assigned replica (Kafka's preferred replica) of the partition at a position. */
    int firstReplicaIndexAt(int position);

    /** Whether the first assigned replica of the partition at a position is in its ISR. */
    boolean firstReplicaInIsrAt(int position);

    /** Whether the leader of the partition at a position is in its ISR (false without a leader). */
    boolean leaderInIsrAt(int position);

    /** Whether the ISR of the partition at a position is empty. */
    boolean isrEmptyAt(int position);

    /** The broker index of the leader of the partition at a position, or -1 without a leader. */
    int leaderIndexAt(int position);

    /** Whether the partition at a position is being reassigned or its topic deleted. */
    boolean reassigningOrDeletingAt(int position);

    /** Whether the topic of the partition at a position is being deleted. */
    boolean topicDeletingAt(int position);

    /** Number of broker indices: every broker named by a registration or a replica. */
    int brokerCount();

    /** The broker id at an index. */
    int brokerIdAt(int index);

    /** The index of a broker id, or -1 when the cluster does not name it. */
    int brokerIndexOf(int id);

    /** Whether the broker at an index is registered, unfenced and not in controlled shutdown. */
    boolean isActiveAt(int index);

    /** Whether the broker is registered, unfenced and not in controlled shutdown. */
    default boolean isActive(int id) {
        int i = brokerIndexOf(id);
        return i >= 0 && isActiveAt(i);
    }

    /** Registered broker ids, ascending. */
    SortedSet<Integer> registeredBrokerIds();
}
