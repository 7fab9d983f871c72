package io.leaderpacer.engine;

import io.leaderpacer.engine.cluster.BrokerState;
import io.leaderpacer.engine.cluster.ClusterSnapshot;
import io.leaderpacer.engine.cluster.PartitionState;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Builds the clusters the hand-worked tests talk about: "broker 1 is the preferred replica of
 * 100 partitions, 4 of them out of its ISR, all led by a follower".
 *
 * <p>Each preferred broker gets its own topic ({@code pref-<broker>}) so tests can tell the groups
 * apart in election lists; followers are the next two registered brokers in ascending id,
 * wrapping around, and the first follower leads.
 */
public final class RecoveryClusterBuilder {

    /** Registered brokers; replaced by fenced/shutting-down variants on request. */
    private final SortedMap<Integer, BrokerState> brokers = new TreeMap<>();
    /** Partitions in the order they were added: the candidate-iteration order of the snapshot. */
    private final List<PartitionState> partitions = new ArrayList<>();
    /** Next partition index per preferred broker's topic, so repeated calls append. */
    private final SortedMap<Integer, Integer> nextIndex = new TreeMap<>();

    private RecoveryClusterBuilder(int... ids) {
        for (int id : ids) {
            brokers.put(id, BrokerState.active(id));
        }
    }

    /** Active brokers with these ids. */
    public static RecoveryClusterBuilder brokers(int... ids) {
        return new RecoveryClusterBuilder(ids);
    }

    /** A shorthand for an int array literal. */
    public static int[] ints(int... values) {
        return values;
    }

    public RecoveryClusterBuilder fenced(int id) {
        brokers.put(id, BrokerState.fenced(id));
        return this;
    }

    public RecoveryClusterBuilder shuttingDown(int id) {
        brokers.put(id, BrokerState.shuttingDown(id));
        return this;
    }

    /**
     * Adds {@code count} imbalanced partitions preferring {@code broker}, led by its first
     * follower; the first {@code outOfSync} of them do not have {@code broker} in the ISR.
     */
    public RecoveryClusterBuilder preferredBy(int broker, int count, int outOfSync) {
        return add(broker, count, outOfSync, false);
    }

    /** Adds {@code count} partitions preferring and led by {@code broker}, all in sync. */
    public RecoveryClusterBuilder balancedFor(int broker, int count) {
        return add(broker, count, 0, true);
    }

    /** Adds an arbitrary partition at the end of the iteration order. */
    public RecoveryClusterBuilder partition(PartitionState p) {
        partitions.add(p);
        return this;
    }

    public ClusterSnapshot build() {
        return ClusterSnapshot.builder()
                .brokers(brokers.values())
                .partitions(partitions)
                .build();
    }

    /** The two brokers after {@code broker} in ascending id, wrapping around. */
    int[] followersOf(int broker) {
        Integer[] ids = brokers.keySet().toArray(new Integer[0]);
        int at = Arrays.asList(ids).indexOf(broker);
        if (at < 0 || ids.length < 3) {
            throw new IllegalArgumentException("need broker " + broker + " and two others, have " + brokers.keySet());
        }
        return new int[] {ids[(at + 1) % ids.length], ids[(at + 2) % ids.length]};
    }

    private RecoveryClusterBuilder add(int broker, int count, int outOfSync, boolean ledByPreferred) {
        int[] f = followersOf(broker);
        int start = nextIndex.getOrDefault(broker, 0);
        for (int i = 0; i < count; i++) {
            boolean inSync = i >= outOfSync;
            int[] isr = inSync ? ints(broker, f[0], f[1]) : ints(f[0], f[1]);
            partitions.add(PartitionState.of(
                    "pref-" + broker, start + i, ints(broker, f[0], f[1]), isr, ledByPreferred ? broker : f[0]));
        }
        nextIndex.put(broker, start + count);
        return this;
    }
}
