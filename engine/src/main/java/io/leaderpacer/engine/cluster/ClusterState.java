package io.leaderpacer.engine.cluster;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The engine's cluster state as the controller keeps its own: updated by replaying partition and broker changes,
 * and keeping, per broker, the counts the gate needs and, for the run, the set of candidates (imbalanced
 * partitions), so that a run costs what it considers instead of a pass over every partition.
 *
 * <p>Why mutable: Kafka's controller replays every record into timeline structures and its periodic task reads
 * them; a run here reads this state the same way. The candidates are filed by {@link CandidateIndex} (per
 * preferred broker, per leader, and what a run must examine), so a run reads what it elects, not every partition.
 * Only {@link #replay(PartitionState)}, {@link #replay(BrokerState)} and {@link #remove(PartitionId)} change it:
 * a partition in constant time (a change of its first replica, O(that broker's partitions) at worst), a broker in
 * O(the candidates it leads); the decisions made over it are still immutable values, and the gate's memory is
 * still an explicit value. Not thread-safe: the caller replays and decides on one thread, as the controller's
 * event loop does.
 *
 * <p>Positions: a partition keeps the position it was first replayed at (the candidate-iteration order); a new
 * partition is appended; a removed one leaves an empty position. Brokers are indexed in the order they are first
 * named; a broker once named stays indexed (Kafka unregisters brokers rarely; an unregistration is replayed as
 * a broker that is not active). {@link #snapshot()} is the equivalent immutable snapshot, and a run over it makes
 * the same decision as a run over this state.
 */
public final class ClusterState extends PartitionColumns {

    /** Broker ids by index, in the order first named. */
    private int[] brokerIds = new int[16];
    /** The registration of the broker at an index, or {@code null} for a broker named only as a replica. */
    private BrokerState[] registrations = new BrokerState[16];
    /** Per broker index, registered and active: the hot loops read this, not the registration. */
    private boolean[] active = new boolean[16];

    private int brokerCount;
    /** Broker id to index, without boxing. */
    private final IntIndexMap indexOf = new IntIndexMap();
    /** Registered ids, ascending, for the gate's walk. */
    private final TreeSet<Integer> registeredIds = new TreeSet<>();

    /** The gate's per-broker counts, kept by replay. */
    private final GateTallies tallies = new GateTallies();

    /** Partitions by position; {@code null} for an empty position. */
    private PartitionState[] partitions = new PartitionState[16];
    /** The candidates, filed for the run: a run walks them without a pass over every partition. */
    private final CandidateIndex candidates = new CandidateIndex();

    private int positions;
    /** Position of each partition. */
    private final PositionIndex positionOf = new PositionIndex();

    /** The per-broker counts of one moment, copied (the run may outlive the next replay). */
    public record Counts(
            int[] total,
            int[] imbalanced,
            int[] outOfSync,
            int[] outOfSyncImbalanced,
            int[] candidatesPerBroker,
            int imbalancedCount,
            int candidateCount) {}

    /** An empty state. */
    public ClusterState() {
        super(16);
    }

    /** The state of a full snapshot: its brokers, then its partitions in order. */
    public static ClusterState of(ClusterSnapshot snapshot) {
        ClusterState s = new ClusterState();
        snapshot.brokers().values().forEach(s::replay);
        snapshot.partitions().forEach(s::replay);
        return s;
    }

    /**
     * A broker registers or changes (fenced, unfenced, controlled shutdown). Constant time, plus, when it becomes
     * active or stops being, the candidates it leads with their preferred replica out of sync (they move in or out
     * of what a run examines).
     */
    public void replay(BrokerState broker) {
        int i = indexBroker(broker.id());
        registrations[i] = broker;
        boolean was = active[i];
        active[i] = broker.isActive();
        if (was != active[i]) {
            candidates.leaderActivityChanged(i, active[i]);
        }
        registeredIds.add(broker.id());
    }

    /**
     * A partition is created or changes (replicas, ISR, ELR, leader, reassignment, deletion). Constant time; a
     * change of its first replica to another broker can cost O(that broker's partitions), to keep its bucket in
     * position order.
     *
     * @throws InvalidSnapshotException when an ISR member is not a registered broker; the state is unchanged
     */
    public void replay(PartitionState p) {
        for (int k = 0, m = p.isrSize(); k < m; k++) {
            int b = p.isrAt(k);
            int i = indexOf.get(b);
            if (i < 0 || registrations[i] == null) {
                throw new InvalidSnapshotException("partition " + p.id() + ": isr member " + b
                        + " is not a registered broker (registered: " + registeredIds + ")");
            }
        }
        int first = -1;
        int leaderAt = -1;
        for (int r = 0; r < p.replicaCount(); r++) {
            int id = p.replicaAt(r);
            int i = indexBroker(id);
            if (r == 0) {
                first = i;
            }
            if (id == p.leader()) {
                leaderAt = i;
            }
        }
        int pos = positionOf.get(p.id());
        int previousPreferred = -1;
        if (pos < 0) {
            pos = positions++;
            ensurePositions(positions);
            positionOf.put(p.id(), pos);
        } else {
            previousPreferred = firstReplicaIndex[pos];
            count(pos, -1);
        }
        partitions[pos] = p;
        setColumns(pos, p, first, leaderAt);
        candidates.place(pos, previousPreferred, firstReplicaIndex[pos]);
        count(pos, +1);
    }

    /** A partition is gone (its topic deleted). Constant time; unknown partitions are ignored. */
    public void remove(PartitionId id) {
        int at = positionOf.remove(id);
        if (at >= 0) {
            count(at, -1);
            candidates.forget(at, firstReplicaIndex[at]);
            partitions[at] = null;
        }
    }

    /** Adds ({@code +1}) or takes back ({@code -1}) the position's share of every count and the candidate set. */
    private void count(int pos, int sign) {
        int pref = firstReplicaIndex[pos];
        boolean isImbalanced = leaders[pos] != brokerIds[pref];
        byte f = flags[pos];
        boolean guarded = PartitionFlags.guarded(f);
        boolean inSync = PartitionFlags.has(f, PartitionFlags.FIRST_REPLICA_IN_ISR);
        boolean deleting = PartitionFlags.has(f, PartitionFlags.DELETING);
        tallies.count(pref, sign, isImbalanced, guarded, deleting, inSync);
        if (isImbalanced && !deleting) {
            boolean stuck = !inSync
                    && !PartitionFlags.has(f, PartitionFlags.ISR_EMPTY)
                    && PartitionFlags.has(f, PartitionFlags.LEADER_IN_ISR);
            candidates.file(
                    pos,
                    sign > 0,
                    pref,
                    leaderIndex[pos],
                    inSync,
                    stuck,
                    PartitionFlags.has(f, PartitionFlags.REASSIGNING),
                    stuck && active[leaderIndex[pos]]);
        }
    }

    private int indexBroker(int id) {
        int i = indexOf.get(id);
        if (i >= 0) {
            return i;
        }
        if (brokerCount == brokerIds.length) {
            int n = brokerCount * 2;
            brokerIds = Arrays.copyOf(brokerIds, n);
            registrations = Arrays.copyOf(registrations, n);
            active = Arrays.copyOf(active, n);
        }
        brokerIds[brokerCount] = id;
        indexOf.put(id, brokerCount);
        return brokerCount++;
    }

    private void ensurePositions(int n) {
        if (n > partitions.length) {
            int size = Math.max(n, partitions.length * 2);
            partitions = Arrays.copyOf(partitions, size);
        }
        ensureColumns(n);
    }

    /** The counts now, copied and sized to the brokers indexed. */
    public Counts counts() {
        return tallies.copy(brokerCount);
    }

    /** The first candidate position at or after {@code from}, or -1. */
    public int nextCandidate(int from) {
        return candidates.next(from);
    }

    /** The candidates as a run reads them: what to examine, per preferred broker, per position. */
    public CandidateIndex candidates() {
        return candidates;
    }

    /** The equivalent immutable snapshot: registered brokers, live partitions in position order. */
    public ClusterSnapshot snapshot() {
        List<BrokerState> brokers = new ArrayList<>();
        for (int i = 0; i < brokerCount; i++) {
            if (registrations[i] != null) {
                brokers.add(registrations[i]);
            }
        }
        List<PartitionState> live = new ArrayList<>(positionOf.size());
        for (int pos = 0; pos < positions; pos++) {
            if (partitions[pos] != null) {
                live.add(partitions[pos]);
            }
        }
        return ClusterSnapshot.builder().brokers(brokers).partitions(live).build();
    }

    /** The partition with this id, or {@code null}. */
    public PartitionState partition(PartitionId id) {
        int at = positionOf.get(id);
        return at < 0 ? null : partitions[at];
    }

    /** How many partitions the state holds. */
    public int partitionCount() {
        return positionOf.size();
    }

    @Override
    public int positionCount() {
        return positions;
    }

    @Override
    public boolean isEmptyAt(int position) {
        return partitions[position] == null;
    }

    @Override
    public PartitionState partitionAt(int position) {
        return partitions[position];
    }

    @Override
    public int brokerCount() {
        return brokerCount;
    }

    @Override
    public int brokerIdAt(int index) {
        return brokerIds[index];
    }

    @Override
    public int brokerIndexOf(int id) {
        return indexOf.get(id);
    }

    @Override
    public boolean isActiveAt(int index) {
        return active[index];
    }

    @Override
    public SortedSet<Integer> registeredBrokerIds() {
        return Collections.unmodifiableSortedSet(registeredIds);
    }

    @Override
    public String toString() {
        return "ClusterState{" + registeredIds.size() + " brokers, " + positionOf.size() + " partitions}";
    }
}
