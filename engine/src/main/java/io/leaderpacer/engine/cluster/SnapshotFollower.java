package io.leaderpacer.engine.cluster;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
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
 * <p>A {@link PartialRead} (a re-check that read only the topics of its {@link ReadScope}) is followed the same way,
 * for its topics only, when it can be: the brokers are exactly as last read and every topic read holds the
 * partitions it held. Otherwise {@link #followPartial} changes nothing and says so, and the caller reads in full.
 *
 * <p>Not thread-safe: one caller, one read at a time (the agent's runs never overlap).
 */
public final class SnapshotFollower {

    /** What the last {@link #follow} did, for the run's timings and the tests. */
    public record Step(boolean rebuilt, int partitionsReplayed, int brokersReplayed) {}

    /** Where each topic's partitions stand in the state: positions {@code [start, end)}, in partition order. */
    private record Span(int start, int end) {}

    private ClusterState state;
    /** The brokers of the last read: a broker that leaves or changes is found by comparing with them. */
    private SortedMap<Integer, BrokerState> brokers = new TreeMap<>();

    private Step lastStep = new Step(false, 0, 0);
    /** Each topic's positions, as of the last rebuild; null when a topic's partitions were not contiguous. */
    private Map<String, Span> spans;

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
            spans = null;
            throw e;
        }
    }

    /**
     * The state after a read of some topics, if it can follow it: the brokers are exactly those of the last read,
     * and each topic read holds the same partitions at the same positions (none created, none deleted). The
     * partitions of the topics read are replayed where they differ; the others are kept as last read. Empty, with
     * nothing changed, when it cannot: the caller then reads the cluster in full.
     */
    public Optional<ClusterState> followPartial(PartialRead read) {
        Objects.requireNonNull(read, "read");
        if (state == null || spans == null || !sameBrokers(read.brokers())) {
            return Optional.empty();
        }
        Map<String, List<PartitionState>> byTopic = new HashMap<>();
        for (PartitionState p : read.partitions()) {
            byTopic.computeIfAbsent(p.id().topic(), t -> new ArrayList<>()).add(p);
        }
        List<PartitionState> parts = new ArrayList<>(read.partitions().size());
        List<Integer> positions = new ArrayList<>(read.partitions().size());
        for (String topic : read.topics()) {
            Span span = spans.get(topic);
            List<PartitionState> of = byTopic.getOrDefault(topic, List.of());
            if (span == null || of.size() != span.end() - span.start()) {
                return Optional.empty();
            }
            for (int k = 0; k < of.size(); k++) {
                PartitionState held = state.partitionAt(span.start() + k);
                if (held == null || !held.id().equals(of.get(k).id())) {
                    return Optional.empty();
                }
                parts.add(of.get(k));
                positions.add(span.start() + k);
            }
        }
        try {
            int replayed = 0;
            for (int k = 0; k < parts.size(); k++) {
                if (!parts.get(k).equals(state.partitionAt(positions.get(k)))) {
                    state.replay(parts.get(k));
                    replayed++;
                }
            }
            lastStep = new Step(false, replayed, 0);
            return Optional.of(state);
        } catch (RuntimeException e) {
            state = null;
            brokers = new TreeMap<>();
            spans = null;
            throw e;
        }
    }

    private boolean sameBrokers(List<BrokerState> read) {
        if (read.size() != brokers.size()) {
            return false;
        }
        for (BrokerState b : read) {
            if (!b.equals(brokers.get(b.id()))) {
                return false;
            }
        }
        return true;
    }

    private ClusterState apply(ClusterSnapshot next) {
        List<PartitionState> partitions = next.partitions();
        if (state == null
                || !next.brokers().keySet().equals(brokers.keySet())
                || state.positionCount() != partitions.size()
                || state.partitionCount() != partitions.size()) {
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
        spans = spansOf(next.partitions());
        brokers = new TreeMap<>(next.brokers());
        lastStep = new Step(true, next.partitions().size(), brokers.size());
        return state;
    }

    /** Each topic's positions, or null when some topic's partitions are not contiguous in the read's order. */
    private static Map<String, Span> spansOf(List<PartitionState> partitions) {
        Map<String, Span> out = new HashMap<>();
        int start = 0;
        for (int pos = 1; pos <= partitions.size(); pos++) {
            String topic = partitions.get(start).id().topic();
            if (pos == partitions.size() || !partitions.get(pos).id().topic().equals(topic)) {
                if (out.put(topic, new Span(start, pos)) != null) {
                    return null;
                }
                start = pos;
            }
        }
        return out;
    }

    /** What the last {@link #follow} call did. */
    public Step lastStep() {
        return lastStep;
    }
}
