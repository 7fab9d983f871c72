package io.leaderpacer.engine.cluster;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Everything the preferred-leader task reads, frozen at one instant.
 *
 * <p>The partition order is meaningful: it is the iteration order of the controller's candidate
 * set, and the {@code immediate} algorithm takes the first {@code max.per.run} elections in that
 * order, exactly as Kafka does. Brokers named as replicas but not registered are treated as
 * inactive (they cannot lead); a broker in an ISR must be registered, or the snapshot is refused.
 */
public final class ClusterSnapshot extends PartitionColumns {

    /** Registered brokers by id, ascending: round-robin and reports walk them in this order. */
    private final SortedMap<Integer, BrokerState> brokers;
    /** Registered broker ids, ascending (the brokers' keys as a sorted set, for the gate's walk). */
    private final SortedSet<Integer> registeredIds;
    /** Partitions in candidate-iteration order. */
    private final List<PartitionState> partitions;
    /**
     * Every broker id the snapshot names (registered or as a replica), compactly numbered in ascending id:
     * per-broker tables are indexed by it, never by id, since an id may be anything up to 2^31-1.
     */
    private final BrokerIndex index;
    /** Per broker index, registered, unfenced and not in controlled shutdown; no boxing in the hot loops. */
    private final boolean[] activeByIndex;
    /** Per broker index, registered at all: an ISR member must be. */
    private final boolean[] registeredByIndex;

    private ClusterSnapshot(SortedMap<Integer, BrokerState> brokers, List<PartitionState> partitions) {
        // The columns (PartitionColumns) are filled once here, so that the balancer's pass over a million
        // partitions reads a few small arrays in order instead of a million objects and their replica and ISR arrays.
        super(partitions.size());
        this.brokers = Collections.unmodifiableSortedMap(brokers);
        this.registeredIds = Collections.unmodifiableSortedSet(new TreeSet<>(brokers.keySet()));
        this.partitions = Collections.unmodifiableList(partitions);
        // One pass over the partitions with the registered brokers' index, validating and filling the columns: a
        // million partitions do not fit in any cache, so every pass over them costs. Only when a replica names a
        // broker that is not registered (rare) is the index widened and the columns filled again.
        BrokerIndex registered = indexBrokers(brokers, List.of());
        BrokerIndex all = fill(registered, true) ? registered : indexBrokers(brokers, partitions);
        if (all != registered) {
            fill(all, false);
        }
        this.index = all;
        this.activeByIndex = new boolean[all.size()];
        this.registeredByIndex = new boolean[all.size()];
        for (BrokerState b : brokers.values()) {
            int i = all.indexOf(b.id());
            activeByIndex[i] = b.isActive();
            registeredByIndex[i] = true;
        }
    }

    /**
     * Fills the columns with this index; validates (ISR members registered, no partition twice) when asked.
     *
     * @return false when a replica names a broker the index does not hold (the columns are then incomplete)
     */
    private boolean fill(BrokerIndex index, boolean validate) {
        boolean[] registered = new boolean[index.size()];
        for (int id : brokers.keySet()) {
            registered[index.indexOf(id)] = true;
        }
        boolean complete = true;
        DuplicateCheck duplicates = validate ? new DuplicateCheck() : null;
        for (int i = 0, n = partitions.size(); i < n; i++) {
            PartitionState p = partitions.get(i);
            if (validate) {
                duplicates.check(p.id());
                for (int k = 0, m = p.isrSize(); k < m; k++) {
                    int b = p.isrAt(k);
                    int at = index.indexOf(b);
                    if (at < 0 || !registered[at]) {
                        throw new InvalidSnapshotException("partition " + p.id() + ": isr member " + b
                                + " is not a registered broker (registered: " + brokers.keySet() + ")");
                    }
                }
            }
            int leader = p.leader();
            int first = -1;
            int leaderAt = -1;
            for (int r = 0, m = p.replicaCount(); r < m; r++) {
                int id = p.replicaAt(r);
                int at = index.indexOf(id);
                complete &= at >= 0;
                if (r == 0) {
                    first = at;
                }
                if (id == leader) {
                    leaderAt = at;
                }
            }
            setColumns(i, p, first, leaderAt);
        }
        return complete;
    }

    private static BrokerIndex indexBrokers(SortedMap<Integer, BrokerState> brokers, List<PartitionState> partitions) {
        int[] ids = new int[Math.max(16, brokers.size() + 16)];
        int count = 0;
        for (int id : brokers.keySet()) {
            if (count == ids.length) {
                ids = Arrays.copyOf(ids, count * 2);
            }
            ids[count++] = id;
        }
        // Replicas name mostly registered brokers: a small "seen" probe keeps the id list short.
        BrokerIndex known = BrokerIndex.of(ids, count);
        for (PartitionState p : partitions) {
            for (int r = 0; r < p.replicaCount(); r++) {
                int id = p.replicaAt(r);
                if (known.indexOf(id) < 0) {
                    if (count == ids.length) {
                        ids = Arrays.copyOf(ids, count * 2);
                    }
                    ids[count++] = id;
                    known = BrokerIndex.of(ids, count);
                }
            }
        }
        return known;
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
    @Override
    public boolean isActive(int brokerId) {
        int i = index.indexOf(brokerId);
        return i >= 0 && activeByIndex[i];
    }

    /** Whether the broker at this compact index is registered, unfenced and not in controlled shutdown. */
    @Override
    public boolean isActiveAt(int brokerIndex) {
        return activeByIndex[brokerIndex];
    }

    @Override
    public boolean isEmptyAt(int position) {
        return false;
    }

    @Override
    public int positionCount() {
        return partitions.size();
    }

    @Override
    public PartitionState partitionAt(int position) {
        return partitions.get(position);
    }

    @Override
    public int brokerCount() {
        return index.size();
    }

    @Override
    public int brokerIdAt(int brokerIndex) {
        return index.idAt(brokerIndex);
    }

    @Override
    public int brokerIndexOf(int id) {
        return index.indexOf(id);
    }

    @Override
    public SortedSet<Integer> registeredBrokerIds() {
        return registeredIds;
    }

    public boolean isRegistered(int brokerId) {
        int i = index.indexOf(brokerId);
        return i >= 0 && registeredByIndex[i];
    }

    /** The compact index of every broker the snapshot names, registered or as a replica. */
    public BrokerIndex brokerIndex() {
        return index;
    }

    /** The first assigned replica (Kafka's preferred replica) of the partition at this position. */
    public int firstReplicaAt(int position) {
        return index.idAt(firstReplicaIndex[position]);
    }

    @Override
    public String toString() {
        return "ClusterSnapshot{" + brokers.size() + " brokers, " + partitions.size() + " partitions}";
    }

    /**
     * Refuses a partition named twice. Partitions of one topic usually come together, so the check looks
     * the topic up once per run of equal topics and marks partition indices in a bit set: no
     * {@code PartitionId} hashing per partition.
     */
    private static final class DuplicateCheck {
        /** Partition indices seen, per topic. */
        private final Map<String, BitSet> seen = new HashMap<>();
        /** The topic of the previous partition and its bit set, the common case. */
        private String lastTopic;

        private BitSet lastSeen;

        void check(PartitionId id) {
            if (lastSeen == null || !lastTopic.equals(id.topic())) {
                lastTopic = id.topic();
                lastSeen = seen.computeIfAbsent(lastTopic, t -> new BitSet());
            }
            if (lastSeen.get(id.partition())) {
                throw new InvalidSnapshotException("partition " + id + " appears twice in the snapshot");
            }
            lastSeen.set(id.partition());
        }
    }

    /** Collects brokers and partitions; {@link #build()} validates them all at once. */
    public static final class Builder {
        private final SortedMap<Integer, BrokerState> brokers = new TreeMap<>();
        private final List<PartitionState> partitions = new ArrayList<>();

        private Builder() {}

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
            if (all instanceof Collection<PartitionState> c) {
                partitions.addAll(c);
            } else {
                all.forEach(partitions::add);
            }
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
