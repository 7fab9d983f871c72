package io.leaderpacer.engine.cluster;

import java.util.Arrays;

/**
 * The per-position columns a run reads, kept the same way by both {@link ClusterView}s: the leader, the broker
 * indices of the first replica and of the leader, and the {@link PartitionFlags} byte.
 *
 * <p>Why one base: a run's hot loops read these columns instead of the partitions, and the snapshot and the
 * replayed state must answer every question about a position identically (the engine's properties compare runs
 * over the two). Writing the columns and their readers once makes that true by construction; each subclass only
 * decides how the columns are filled (once from a full read, or position by position on replay).
 *
 * <p>The columns are not final fields (the replayed state grows them), so a snapshot is not safely published by a
 * data race alone: hand it to another thread through a lock, an executor or a volatile write, as every caller does.
 */
abstract sealed class PartitionColumns implements ClusterView permits ClusterSnapshot, ClusterState {

    /** Per position, its leader (a broker id, or -1). */
    int[] leaders;
    /** Per position, the broker index of its first assigned replica (Kafka's preferred replica). */
    int[] firstReplicaIndex;
    /** Per position, the broker index of its leader, or -1: a valid leader is kept without a lookup. */
    int[] leaderIndex;
    /** Per position, the {@link PartitionFlags} byte. */
    byte[] flags;

    PartitionColumns(int capacity) {
        leaders = new int[capacity];
        firstReplicaIndex = new int[capacity];
        leaderIndex = new int[capacity];
        flags = new byte[capacity];
    }

    /** Makes room for {@code n} positions, at least doubling, keeping what the columns hold. */
    final void ensureColumns(int n) {
        if (n > leaders.length) {
            int size = Math.max(n, leaders.length * 2);
            leaders = Arrays.copyOf(leaders, size);
            firstReplicaIndex = Arrays.copyOf(firstReplicaIndex, size);
            leaderIndex = Arrays.copyOf(leaderIndex, size);
            flags = Arrays.copyOf(flags, size);
        }
    }

    /** Writes a partition's columns at a position, given the broker indices of its first replica and leader. */
    final void setColumns(int position, PartitionState p, int firstReplicaAt, int leaderAt) {
        leaders[position] = p.leader();
        firstReplicaIndex[position] = firstReplicaAt;
        leaderIndex[position] = leaderAt;
        flags[position] = PartitionFlags.of(p);
    }

    @Override
    public final boolean imbalancedAt(int position) {
        return PartitionFlags.has(flags[position], PartitionFlags.IMBALANCED);
    }

    @Override
    public final int leaderAt(int position) {
        return leaders[position];
    }

    @Override
    public final int firstReplicaIndexAt(int position) {
        return firstReplicaIndex[position];
    }

    @Override
    public final boolean firstReplicaInIsrAt(int position) {
        return PartitionFlags.has(flags[position], PartitionFlags.FIRST_REPLICA_IN_ISR);
    }

    @Override
    public final boolean leaderInIsrAt(int position) {
        return PartitionFlags.has(flags[position], PartitionFlags.LEADER_IN_ISR);
    }

    @Override
    public final boolean isrEmptyAt(int position) {
        return PartitionFlags.has(flags[position], PartitionFlags.ISR_EMPTY);
    }

    @Override
    public final int leaderIndexAt(int position) {
        return leaderIndex[position];
    }

    @Override
    public final boolean reassigningOrDeletingAt(int position) {
        return PartitionFlags.guarded(flags[position]);
    }

    @Override
    public final boolean topicDeletingAt(int position) {
        return PartitionFlags.has(flags[position], PartitionFlags.DELETING);
    }
}
