package io.leaderpacer.engine;

import io.leaderpacer.engine.cluster.ClusterSnapshot;
import io.leaderpacer.engine.cluster.PartitionState;

import java.util.Arrays;
import java.util.List;

/**
 * Per-broker tallies from one pass over the snapshot, and the candidates with their effective
 * preferred replica, so that the gate and the selection never walk replica lists twice.
 *
 * <p>Tables are indexed by broker id (dense; sized by the largest id in the snapshot).
 * Partitions under reassignment or whose topic is being deleted are left out, as Kafka's
 * candidate filter leaves them out before the gate is evaluated.
 *
 * <p>The pass also collects the candidates (imbalanced partitions that are not left out), so that
 * the rest of the run visits only them: in a large cluster most partitions are balanced, and
 * reading each of them a second time would cost as much as the whole first pass.
 */
final class PreferredCounts {

    /** Positions (in snapshot order) of the candidates: imbalanced partitions not left out. */
    final int[] candidates;
    /** Effective preferred replica of each candidate, parallel to {@link #candidates}. */
    final int[] candidatePreferred;
    /** How many entries of {@link #candidates} are used. */
    final int candidateCount;
    /** Partitions per preferred broker. */
    final int[] total;
    /** Of them, not led by the preferred broker. */
    final int[] imbalanced;
    /** Of them, the preferred broker is not in the ISR. */
    final int[] outOfSync;
    /** Of the imbalanced ones, the preferred broker is not in the ISR (the literal reading's numerator). */
    final int[] outOfSyncImbalanced;
    /** All imbalanced partitions, the figure behind Kafka's PreferredReplicaImbalanceCount. */
    final int imbalancedCount;

    private PreferredCounts(int[] candidates, int[] candidatePreferred, int candidateCount, int[] total,
                            int[] imbalanced, int[] outOfSync, int[] outOfSyncImbalanced, int imbalancedCount) {
        this.candidates = candidates;
        this.candidatePreferred = candidatePreferred;
        this.candidateCount = candidateCount;
        this.total = total;
        this.imbalanced = imbalanced;
        this.outOfSync = outOfSync;
        this.outOfSyncImbalanced = outOfSyncImbalanced;
        this.imbalancedCount = imbalancedCount;
    }

    static PreferredCounts of(ClusterSnapshot cluster, EffectiveReplicaOrder order) {
        Tally t = new Tally(cluster.maxBrokerId() + 1, cluster.partitions().size());
        int n = cluster.partitions().size();
        if (order.isAssignmentOrder()) {
            // The common case: the preferred replica is the first assigned one, and the snapshot's
            // columns already hold everything this pass needs.
            for (int i = 0; i < n; i++) {
                t.add(i, cluster.firstReplicaAt(i), cluster.leaderAt(i), cluster.reassigningOrDeletingAt(i),
                        cluster.firstReplicaInIsrAt(i));
            }
        } else {
            List<PartitionState> partitions = cluster.partitions();
            for (int i = 0; i < n; i++) {
                PartitionState p = partitions.get(i);
                int pref = order.preferred(p);
                t.add(i, pref, p.leader(), p.reassigning() || p.topicDeleting(), p.isrContains(pref));
            }
        }
        return new PreferredCounts(t.candidates, t.candidatePreferred, t.candidateCount, t.total, t.imbalanced,
                t.outOfSync, t.outOfSyncImbalanced, t.imbalancedCount);
    }

    /** The tallies while the pass runs. */
    private static final class Tally {
        private final int[] total;
        private final int[] imbalanced;
        private final int[] outOfSync;
        private final int[] outOfSyncImbalanced;
        private int[] candidates;
        private int[] candidatePreferred;
        private int candidateCount;
        private int imbalancedCount;

        Tally(int brokerTableSize, int partitions) {
            total = new int[brokerTableSize];
            imbalanced = new int[brokerTableSize];
            outOfSync = new int[brokerTableSize];
            outOfSyncImbalanced = new int[brokerTableSize];
            candidates = new int[Math.max(16, partitions / 8)];
            candidatePreferred = new int[candidates.length];
        }

        void add(int position, int pref, int leader, boolean leftAlone, boolean inSync) {
            boolean isImbalanced = leader != pref;
            if (isImbalanced) {
                imbalancedCount++;
            }
            if (leftAlone) {
                return;
            }
            total[pref]++;
            if (!inSync) {
                outOfSync[pref]++;
            }
            if (isImbalanced) {
                imbalanced[pref]++;
                if (!inSync) {
                    outOfSyncImbalanced[pref]++;
                }
                if (candidateCount == candidates.length) {
                    candidates = Arrays.copyOf(candidates, candidateCount * 2);
                    candidatePreferred = Arrays.copyOf(candidatePreferred, candidateCount * 2);
                }
                candidates[candidateCount] = position;
                candidatePreferred[candidateCount] = pref;
                candidateCount++;
            }
        }
    }

    int brokerTableSize() {
        return total.length;
    }
}
