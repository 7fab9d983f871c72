package io.leaderpacer.engine;

import io.leaderpacer.engine.cluster.ClusterSnapshot;
import io.leaderpacer.engine.cluster.PartitionState;

/**
 * Per-broker tallies from one pass over the snapshot, and each partition's effective preferred
 * replica, so that the gate and the selection never walk replica lists twice.
 *
 * <p>Tables are indexed by broker id (dense; sized by the largest id in the snapshot).
 * Partitions under reassignment or whose topic is being deleted are left out, as Kafka's
 * candidate filter leaves them out before the gate is evaluated.
 */
final class PreferredCounts {

    /** Effective preferred replica per partition index; -1 for partitions left out. */
    final int[] preferredOf;
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

    private PreferredCounts(int[] preferredOf, int[] total, int[] imbalanced, int[] outOfSync,
                            int[] outOfSyncImbalanced, int imbalancedCount) {
        this.preferredOf = preferredOf;
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
        int n = cluster.partitions().size();
        int[] preferredOf = new int[n];
        int imbalancedCount = 0;
        for (int i = 0; i < n; i++) {
            PartitionState p = cluster.partitions().get(i);
            int pref = order.preferred(p);
            boolean isImbalanced = p.leader() != pref;
            if (isImbalanced) {
                imbalancedCount++;
            }
            if (p.reassigning() || p.topicDeleting()) {
                preferredOf[i] = -1;
                continue;
            }
            preferredOf[i] = pref;
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
        return new PreferredCounts(preferredOf, total, imbalanced, outOfSync, outOfSyncImbalanced, imbalancedCount);
    }

    int brokerTableSize() {
        return total.length;
    }
}
