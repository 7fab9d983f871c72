package io.leaderpacer.engine.cluster;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Everything the preferred-leader task reads, frozen at one instant.
 *
 * <p>The partition order is meaningful: it is the iteration order of the controller's candidate
 * set, and the {@code immediate} algorithm takes the first {@code max.per.run} elections in that
 * order, exactly as Kafka does. Brokers named as replicas but not registered are treated as
 * inactive (they cannot lead); a broker in an ISR must be registered, or the snapshot is refused.
 */
public final class ClusterSnapshot {

    /** Registered brokers by id, ascending: round-robin and reports walk them in this order. */
    private final SortedMap<Integer, BrokerState> brokers;
    /** Partitions in candidate-iteration order. */
    private final List<PartitionState> partitions;
    /**
     * Dense liveness table indexed by broker id, so the hot loop over a million partitions does
     * no boxing or hashing. Ids beyond its length are unregistered, hence inactive.
     */
    private final boolean[] activeById;
    /** Largest broker id named anywhere (registered or as a replica): sizes the engine's per-broker tables. */
    private final int maxBrokerId;
    /**
     * Per partition position, its leader; with {@link #firstReplicaColumn} and {@link #flagColumn}
     * a column view filled once here, so that the balancer's pass over a million partitions reads
     * three small arrays in order instead of a million objects and their replica and ISR arrays.
     */
    private final int[] leaderColumn;
    /** Per partition position, its first assigned replica (Kafka's preferred replica). */
    private final int[] firstReplicaColumn;
    /** Per partition position, {@link #FIRST_REPLICA_IN_ISR} and {@link #LEFT_ALONE} bits. */
    private final byte[] flagColumn;

    private static final byte FIRST_REPLICA_IN_ISR = 1;
    private static final byte LEFT_ALONE = 2;

    private ClusterSnapshot(SortedMap<Integer, BrokerState> brokers, List<PartitionState> partitions) {
        this.brokers = Collections.unmodifiableSortedMap(brokers);
        this.partitions = Collections.unmodifiableList(partitions);
        int maxId = brokers.isEmpty() ? -1 : brokers.lastKey();
        this.activeById = new boolean[maxId + 1];
        for (BrokerState b : brokers.values()) {
            activeById[b.id()] = b.isActive();
        }
        this.maxBrokerId = validate(maxId);
        int n = partitions.size();
        this.leaderColumn = new int[n];
        this.firstReplicaColumn = new int[n];
        this.flagColumn = new byte[n];
        for (int i = 0; i < n; i++) {
            PartitionState p = partitions.get(i);
            leaderColumn[i] = p.leader();
            firstReplicaColumn[i] = p.replicaAt(0);
            flagColumn[i] = (byte) ((p.isrContains(p.replicaAt(0)) ? FIRST_REPLICA_IN_ISR : 0)
                    | (p.reassigning() || p.topicDeleting() ? LEFT_ALONE : 0));
        }
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A builder pre-filled with this snapshot's brokers and partitions. */
    public Builder toBuilder() {
        Builder b = new Builder();
        brokers.values().forEach(b::broker);
        b.partitions.addAll(partitions);
        return b;
    }

    /** Registered brokers, ascending by id. */
    public SortedMap<Integer, BrokerState> brokers() {
        return brokers;
    }

    /** Partitions in candidate-iteration order. */
    public List<PartitionState> partitions() {
        return partitions;
    }

    /** Whether the broker is registered, unfenced and not in controlled shutdown. */
    public boolean isActive(int brokerId) {
        return brokerId >= 0 && brokerId < activeById.length && activeById[brokerId];
    }

    public boolean isRegistered(int brokerId) {
        return brokers.containsKey(brokerId);
    }

    /** The leader of the partition at this position of {@link #partitions()}, without touching the partition. */
    public int leaderAt(int position) {
        return leaderColumn[position];
    }

    /** The first assigned replica (Kafka's preferred replica) of the partition at this position. */
    public int firstReplicaAt(int position) {
        return firstReplicaColumn[position];
    }

    /** Whether the first assigned replica of the partition at this position is in its ISR. */
    public boolean firstReplicaInIsrAt(int position) {
        return (flagColumn[position] & FIRST_REPLICA_IN_ISR) != 0;
    }

    /** Whether the partition at this position is being reassigned or its topic deleted. */
    public boolean reassigningOrDeletingAt(int position) {
        return (flagColumn[position] & LEFT_ALONE) != 0;
    }

    /** Largest broker id named by a registration or a replica, or -1 for an empty snapshot. */
    public int maxBrokerId() {
        return maxBrokerId;
    }

    private int validate(int maxRegistered) {
        int max = maxRegistered;
        Set<PartitionId> seen = new HashSet<>(Math.max(16, partitions.size() * 2));
        for (PartitionState p : partitions) {
            if (!seen.add(p.id())) {
                throw new InvalidSnapshotException("partition " + p.id() + " appears twice in the snapshot");
            }
            for (int i = 0; i < p.replicaCount(); i++) {
                max = Math.max(max, p.replicaAt(i));
            }
            p.forEachIsrMember(b -> {
                if (!brokers.containsKey(b)) {
                    throw new InvalidSnapshotException("partition " + p.id() + ": isr member " + b
                            + " is not a registered broker (registered: " + brokers.keySet() + ")");
                }
            });
        }
        return max;
    }

    @Override
    public String toString() {
        return "ClusterSnapshot{" + brokers.size() + " brokers, " + partitions.size() + " partitions}";
    }

    /** Collects brokers and partitions; {@link #build()} validates them all at once. */
    public static final class Builder {
        private final SortedMap<Integer, BrokerState> brokers = new TreeMap<>();
        private final List<PartitionState> partitions = new ArrayList<>();

        private Builder() {
        }

        public Builder broker(BrokerState broker) {
            BrokerState previous = brokers.put(broker.id(), broker);
            if (previous != null && !previous.equals(broker)) {
                throw new InvalidSnapshotException("broker " + broker.id() + " registered twice with different states: "
                        + previous + " and " + broker);
            }
            return this;
        }

        public Builder brokers(Iterable<BrokerState> all) {
            all.forEach(this::broker);
            return this;
        }

        /** Registers active brokers {@code 0 .. count-1}. */
        public Builder activeBrokers(int count) {
            for (int i = 0; i < count; i++) {
                broker(BrokerState.active(i));
            }
            return this;
        }

        public Builder partition(PartitionState partition) {
            partitions.add(partition);
            return this;
        }

        public Builder partitions(Iterable<PartitionState> all) {
            all.forEach(partitions::add);
            return this;
        }

        /** Replaces any registration of the broker. */
        public Builder replaceBroker(BrokerState broker) {
            brokers.put(broker.id(), broker);
            return this;
        }


        public ClusterSnapshot build() {
            return new ClusterSnapshot(new TreeMap<>(brokers), new ArrayList<>(partitions));
        }
    }
}
