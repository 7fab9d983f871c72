package io.leaderpacer.engine.cluster;

import java.util.List;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Keeps a {@link ClusterState} in step with successive full reads of a cluster, by replaying only what changed.
 *
 * <p>Why: a caller outside the controller (the agent, through the Admin API) only ever gets whole snapshots.
 * Rebuilding the state from each one costs a pass that allocates every column again; diffing the new read
 * against the state replays only the partitions and brokers that changed, so a run costs the read and the
 * comparison, and the state's candidate index stays warm. When the set of brokers or the sequence of partitions
 * changes (a topic created or deleted, a broker unregistered), the state is rebuilt from the snapshot instead, so
 * that its positions keep the snapshot's order and every decision stays what the snapshot itself would give.
 *
 * <p>Not thread-safe: one caller, one read at a time (the agent's runs never overlap).
 */
public final class SnapshotFollower {

    /** What the last {@link #follow} did, for the run's timings and the tests. */
    public record Step(boolean rebuilt, int partitionsReplayed, int brokersReplayed) {
    }

    private ClusterState state;
    /** The brokers of the last read: a broker that leaves or changes is found by comparing with them. */
    private SortedMap<Integer, BrokerState> brokers = new TreeMap<>();
    private Step lastStep = new Step(false, 0, 0);

    /**
     * The state after the next read: the previous state with the differences replayed, or a new one. If a replay
     * fails, the state is dropped and the next read rebuilds it: nothing half-applied is ever decided on.
     */
    public ClusterState follow(ClusterSnapshot next) {
        Objects.requireNonNull(next, "next");
        try {
            return apply(next);
        } catch (RuntimeException e) {
            state = null;
            brokers = new TreeMap<>();
            throw e;
        }
    }

    private ClusterState apply(ClusterSnapshot next) {
        List<PartitionState> partitions = next.partitions();
        if (state == null || !next.brokers().keySet().equals(brokers.keySet())
                || state.positionCount() != partitions.size() || state.partitionCount() != partitions.size()) {
            return rebuild(next);
        }
        int brokersReplayed = 0;
        for (BrokerState b : next.brokers().values()) {
            if (!b.equals(brokers.get(b.id()))) {
                state.replay(b);
                brokersReplayed++;
            }
        }
        brokers = new TreeMap<>(next.brokers());
        int replayed = 0;
        for (int i = 0, n = partitions.size(); i < n; i++) {
            PartitionState p = partitions.get(i);
            PartitionState held = state.partitionAt(i);
            if (held == null || !held.id().equals(p.id())) {
                // Another sequence of partitions: positions would no longer follow the read's order.
                return rebuild(next);
            }
            if (!p.equals(held)) {
                state.replay(p);
                replayed++;
            }
        }
        lastStep = new Step(false, replayed, brokersReplayed);
        return state;
    }

    private ClusterState rebuild(ClusterSnapshot next) {
        state = ClusterState.of(next);
        brokers = new TreeMap<>(next.brokers());
        lastStep = new Step(true, next.partitions().size(), brokers.size());
        return state;
    }

    /** What the last {@link #follow} call did. */
    public Step lastStep() {
        return lastStep;
    }
}
