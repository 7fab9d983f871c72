package io.leaderpacer.simulator.model;

import io.leaderpacer.engine.EffectiveReplicaOrder;
import io.leaderpacer.engine.cluster.BrokerState;
import io.leaderpacer.engine.cluster.ClusterSnapshot;
import io.leaderpacer.engine.cluster.ClusterState;
import io.leaderpacer.engine.cluster.PartitionState;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * What the controller's metadata says right now: broker registrations, each partition's leader
 * and ISR, and the engine's immutable {@link PartitionState} view of every partition kept up to
 * date as they change, so a snapshot for the engine is one array copy away.
 *
 * <p>Per-broker totals (leaders, led traffic, preferred partitions and how many of them are led
 * or out of sync) are recomputed lazily, only for brokers something touched since the last
 * {@link #refresh()}: cheap, and impossible to drift the way incremental bookkeeping can.
 *
 * <p>Named for the model: the engine's own {@code ClusterState} is the policy's incremental view of a cluster, which
 * this class builds for it ({@link #engineState()}).
 */
public final class ModelCluster {

    /** Told about every leadership and ISR change, to re-file the partition's latency class. */
    public interface Listener {
        void leaderChanged(int p, int previousLeader, int newLeader);

        void isrChanged(int p);
    }

    private final ClusterLayout layout;
    private final Listener listener;

    // --- brokers, as registered with the controller ---
    /** The broker process is running. */
    final boolean[] alive;
    /** Fenced by the controller (down, or not yet caught up with metadata). */
    final boolean[] fenced;
    /** In controlled shutdown: cannot lead. */
    final boolean[] shuttingDown;
    /** When the broker was last unfenced after a restart, or Long.MIN_VALUE: drives the cold-cache penalty. */
    final long[] restartUnfencedAtMs;

    // --- partitions ---
    final int[] leader;
    /** ISR as a bit per assignment position. */
    final int[] isrMask;
    /** The current leader was elected uncleanly (from outside the ISR). */
    final boolean[] unclean;
    /** Effective preferred broker of each partition under the current deprioritized list. */
    final int[] preferredOf;
    /** The engine's view, in candidate order: {@code view[positionOf[p]]}. */
    private final PartitionState[] view;

    private final int[] positionOf;
    private EffectiveReplicaOrder order = EffectiveReplicaOrder.of(Set.of());

    // --- per-broker totals, valid after refresh() ---
    private final boolean[] dirty;
    private final int[] dirtyList;
    private int dirtyCount;
    final int[] leaderCount;
    final long[] leadBytes;
    final long[] leadMilliRequests;
    final long[] leadConsumerMilliRequests;
    /** Bytes per second consumers read from the partitions a broker leads (one reader per consumed partition): the reads a cold cache hurts. */
    final long[] leadConsumerBytes;

    final int[] preferredCount;
    final int[] preferredLed;
    final int[] outOfSyncPreferred;

    /** Brokers for failover elections: registrations only, rebuilt when one changes. */
    private ClusterSnapshot brokersOnly;
    /**
     * The engine's incremental state, built from the full snapshot at the first run and then fed every partition
     * and broker change as a delta, as the controller replays its records: a run then costs what it considers.
     */
    private ClusterState engineState;

    public ModelCluster(ClusterLayout layout, Listener listener) {
        this.layout = layout;
        this.listener = listener;
        int n = layout.brokers;
        int parts = layout.partitions;
        alive = new boolean[n];
        fenced = new boolean[n];
        shuttingDown = new boolean[n];
        restartUnfencedAtMs = new long[n];
        Arrays.fill(alive, true);
        Arrays.fill(restartUnfencedAtMs, Long.MIN_VALUE);
        leader = new int[parts];
        isrMask = new int[parts];
        unclean = new boolean[parts];
        preferredOf = new int[parts];
        view = new PartitionState[parts];
        positionOf = new int[parts];
        for (int pos = 0; pos < parts; pos++) {
            positionOf[layout.candidateOrder[pos]] = pos;
        }
        for (int p = 0; p < parts; p++) {
            // Steady state: every replica in sync, the first replica leads.
            leader[p] = layout.replica(p, 0);
            isrMask[p] = (1 << layout.replicaCount(p)) - 1;
            rebuildView(p);
            preferredOf[p] = leader[p];
        }
        dirty = new boolean[n];
        dirtyList = new int[n];
        leaderCount = new int[n];
        leadBytes = new long[n];
        leadMilliRequests = new long[n];
        leadConsumerMilliRequests = new long[n];
        leadConsumerBytes = new long[n];
        preferredCount = new int[n];
        preferredLed = new int[n];
        outOfSyncPreferred = new int[n];
        for (int b = 0; b < n; b++) {
            markDirty(b);
        }
        rebuildBrokers();
        refresh();
    }

    public ClusterLayout layout() {
        return layout;
    }

    // ------------------------------------------------------------------ brokers

    public boolean isAlive(int b) {
        return alive[b];
    }

    public boolean isFenced(int b) {
        return fenced[b];
    }

    /** Can lead: registered, unfenced, not shutting down (Kafka's acceptable leader). */
    public boolean isActive(int b) {
        return !fenced[b] && !shuttingDown[b];
    }

    /** Fetches as a follower: the process runs and the broker is unfenced. */
    public boolean isFetching(int b) {
        return alive[b] && !fenced[b];
    }

    public long restartUnfencedAtMs(int b) {
        return restartUnfencedAtMs[b];
    }

    public void setBroker(int b, boolean isAlive, boolean isFenced, boolean isShuttingDown) {
        alive[b] = isAlive;
        fenced[b] = isFenced;
        shuttingDown[b] = isShuttingDown;
        markDirty(b);
        rebuildBrokers();
        if (engineState != null) {
            engineState.replay(new BrokerState(b, fenced[b], shuttingDown[b]));
        }
    }

    public void markRestartUnfenced(int b, long nowMs) {
        restartUnfencedAtMs[b] = nowMs;
    }

    private void rebuildBrokers() {
        ClusterSnapshot.Builder builder = ClusterSnapshot.builder();
        for (int b = 0; b < layout.brokers; b++) {
            builder.broker(new BrokerState(b, fenced[b], shuttingDown[b]));
        }
        brokersOnly = builder.build();
    }

    /** The registrations alone: what a failover election needs to know. */
    public ClusterSnapshot brokersSnapshot() {
        return brokersOnly;
    }

    // ------------------------------------------------------------------ partitions

    public int leader(int p) {
        return leader[p];
    }

    public boolean isUnclean(int p) {
        return unclean[p];
    }

    public int preferred(int p) {
        return preferredOf[p];
    }

    public EffectiveReplicaOrder order() {
        return order;
    }

    public boolean isrContains(int p, int broker) {
        int base = layout.replicaStart[p];
        int count = layout.replicaCount(p);
        for (int j = 0; j < count; j++) {
            if (layout.slotBroker[base + j] == broker) {
                return (isrMask[p] & (1 << j)) != 0;
            }
        }
        return false;
    }

    public boolean slotInIsr(int slot) {
        int p = layout.slotPartition[slot];
        return (isrMask[p] & (1 << (slot - layout.replicaStart[p]))) != 0;
    }

    public int isrSize(int p) {
        return Integer.bitCount(isrMask[p]);
    }

    public int isrMask(int p) {
        return isrMask[p];
    }

    /** The engine's view of a partition. */
    public PartitionState view(int p) {
        return view[positionOf[p]];
    }

    /** Changes a partition's leader (an election); {@code wasUnclean} marks an unclean one. */
    public void setLeader(int p, int newLeader, boolean wasUnclean) {
        int previous = leader[p];
        if (previous == newLeader) {
            return;
        }
        leader[p] = newLeader;
        unclean[p] = wasUnclean;
        rebuildView(p);
        for (int j = 0; j < layout.replicaCount(p); j++) {
            markDirty(layout.replica(p, j));
        }
        listener.leaderChanged(p, previous, newLeader);
    }

    /** Changes a partition's ISR (an AlterPartition or a fencing), by assignment-position bits. */
    public void setIsr(int p, int mask) {
        if (isrMask[p] == mask) {
            return;
        }
        isrMask[p] = mask;
        rebuildView(p);
        // Only the preferred broker's out-of-sync count depends on the ISR.
        markDirty(preferredOf[p]);
        listener.isrChanged(p);
    }

    /** The ISR bit of a replica slot. */
    public int bitOf(int slot) {
        return 1 << (slot - layout.replicaStart[layout.slotPartition[slot]]);
    }

    private void rebuildView(int p) {
        int count = layout.replicaCount(p);
        int[] replicas = layout.replicas(p);
        int[] isr = new int[Integer.bitCount(isrMask[p])];
        int k = 0;
        for (int j = 0; j < count; j++) {
            if ((isrMask[p] & (1 << j)) != 0) {
                isr[k++] = replicas[j];
            }
        }
        view[positionOf[p]] =
                PartitionState.of(layout.ids[p].topic(), layout.ids[p].partition(), replicas, isr, leader[p]);
        if (engineState != null) {
            engineState.replay(view[positionOf[p]]);
        }
    }

    /** Partitions in candidate order, as the engine's snapshot wants them (a fresh list). */
    public List<PartitionState> partitionsInCandidateOrder() {
        return Arrays.asList(view.clone());
    }

    /** The engine's incremental state for a run of the preferred-leader task (the same decisions as {@link #snapshot()}). */
    public ClusterState engineState() {
        if (engineState == null) {
            engineState = ClusterState.of(snapshot());
        }
        return engineState;
    }

    /** A full snapshot for a run of the preferred-leader task. */
    public ClusterSnapshot snapshot() {
        List<BrokerState> brokers = new ArrayList<>(brokersOnly.brokers().values());
        return ClusterSnapshot.builder()
                .brokers(brokers)
                .partitions(partitionsInCandidateOrder())
                .build();
    }

    /** Applies a new deprioritized list: recomputes every partition's effective preferred broker. */
    public void setOrder(EffectiveReplicaOrder newOrder) {
        order = newOrder;
        for (int p = 0; p < layout.partitions; p++) {
            preferredOf[p] = newOrder.preferred(view(p));
        }
        for (int b = 0; b < layout.brokers; b++) {
            markDirty(b);
        }
    }

    // ------------------------------------------------------------------ per-broker totals

    public void markDirty(int b) {
        if (!dirty[b]) {
            dirty[b] = true;
            dirtyList[dirtyCount++] = b;
        }
    }

    /** Recomputes the totals of every broker touched since the last call. */
    public void refresh() {
        for (int i = 0; i < dirtyCount; i++) {
            int b = dirtyList[i];
            dirty[b] = false;
            recompute(b);
        }
        dirtyCount = 0;
    }

    private void recompute(int b) {
        int leaders = 0;
        long bytes = 0;
        long requests = 0;
        long consumers = 0;
        long consumerBytes = 0;
        int pref = 0;
        int prefLed = 0;
        int outOfSync = 0;
        for (int i = layout.brokerSlotStart[b]; i < layout.brokerSlotStart[b + 1]; i++) {
            int slot = layout.brokerSlots[i];
            int p = layout.slotPartition[slot];
            if (leader[p] == b) {
                leaders++;
                bytes += layout.bytesPerSecond[p];
                requests += layout.produceMilliRequests[p];
                consumers += layout.consumerMilliRequests[p];
                if (layout.consumerMilliRequests[p] > 0) {
                    consumerBytes += layout.bytesPerSecond[p];
                }
            }
            if (preferredOf[p] == b) {
                pref++;
                if (leader[p] == b) {
                    prefLed++;
                }
                if ((isrMask[p] & bitOf(slot)) == 0) {
                    outOfSync++;
                }
            }
        }
        leaderCount[b] = leaders;
        leadBytes[b] = bytes;
        leadMilliRequests[b] = requests;
        leadConsumerMilliRequests[b] = consumers;
        leadConsumerBytes[b] = consumerBytes;
        preferredCount[b] = pref;
        preferredLed[b] = prefLed;
        outOfSyncPreferred[b] = outOfSync;
    }

    public int leaderCount(int b) {
        return leaderCount[b];
    }

    public long leadBytes(int b) {
        return leadBytes[b];
    }

    public long leadMilliRequests(int b) {
        return leadMilliRequests[b];
    }

    public long leadConsumerMilliRequests(int b) {
        return leadConsumerMilliRequests[b];
    }

    /** Bytes per second read by consumers of the partitions {@code b} leads (each consumed partition read once). */
    public long leadConsumerBytes(int b) {
        return leadConsumerBytes[b];
    }

    public int preferredCount(int b) {
        return preferredCount[b];
    }

    public int preferredLed(int b) {
        return preferredLed[b];
    }

    /** KIP-1358's OutOfSyncPreferredPartitionCount{broker=b}. */
    public int outOfSyncPreferred(int b) {
        return outOfSyncPreferred[b];
    }
}
