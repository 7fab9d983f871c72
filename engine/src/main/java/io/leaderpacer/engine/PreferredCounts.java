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
        int size = cluster.maxBrokerId() + 1;
        int[] total = new int[size];
        int[] imbalanced = new int[size];
        int[] outOfSync = new int[size];
        int[] outOfSyncImbalanced = new int[size];
        List<PartitionState> partitions = cluster.partitions();
        int n = partitions.size();
        int[] candidates = new int[Math.max(16, n / 8)];
        int[] candidatePreferred = new int[candidates.length];
        int candidateCount = 0;
        int imbalancedCount = 0;
        for (int i = 0; i < n; i++) {
            PartitionState p = partitions.get(i);
            int pref = order.preferred(p);
            boolean isImbalanced = p.leader() != pref;
            if (isImbalanced) {
                imbalancedCount++;
            }
            if (p.reassigning() || p.topicDeleting()) {
                continue;
            }
            if (isImbalanced) {
                if (candidateCount == candidates.length) {
                    candidates = Arrays.copyOf(candidates, candidateCount * 2);
                    candidatePreferred = Arrays.copyOf(candidatePreferred, candidateCount * 2);
                }
                candidates[candidateCount] = i;
                candidatePreferred[candidateCount] = pref;
                candidateCount++;
            }
            total[pref]++;
            boolean inSync = p.isrContains(pref);
            if (!inSync) {
                outOfSync[pref]++;
            }
            if (isImbalanced) {
                imbalanced[pref]++;
                if (!inSync) {
                    outOfSyncImbalanced[pref]++;
                }
            }
        }
        return new PreferredCounts(candidates, candidatePreferred, candidateCount, total, imbalanced, outOfSync,
                outOfSyncImbalanced, imbalancedCount);
    }

    int brokerTableSize() {
        return total.length;
    }
}
