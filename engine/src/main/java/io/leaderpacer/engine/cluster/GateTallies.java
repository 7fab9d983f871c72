package io.leaderpacer.engine.cluster;

import java.util.Arrays;

/**
 * The per-broker counts the wait-for-sync gate reads, kept by {@link ClusterState}'s replay: per preferred broker,
 * its partitions, those it does not lead, those where it is out of the ISR, and its candidates.
 *
 * <p>Why kept rather than counted: the gate looks at every broker on every run, and counting would be a pass over
 * every partition; each replay adds or takes back one partition's share instead. Partitions under reassignment or
 * in a topic being deleted are left out of the gate's counts (KIP-1358's guards).
 */
final class GateTallies {

    /** Per broker index, over partitions neither reassigning nor deleting. */
    private int[] total = new int[16];

    private int[] imbalanced = new int[16];
    private int[] outOfSync = new int[16];
    private int[] outOfSyncImbalanced = new int[16];
    /** Candidates per preferred broker index (reassigning ones included). */
    private int[] candidatesPerBroker = new int[16];
    /** All imbalanced partitions (Kafka's PreferredReplicaImbalanceCount). */
    private int imbalancedCount;
    /** Imbalanced partitions not in a topic being deleted: the run's candidates. */
    private int candidateCount;

    /**
     * Adds ({@code sign = +1}) or takes back ({@code -1}) one partition's share.
     *
     * @param pref    broker index of its first assigned replica
     * @param guarded under reassignment or in a topic being deleted
     * @param inSync  the first assigned replica is in the ISR
     */
    void count(int pref, int sign, boolean isImbalanced, boolean guarded, boolean deleting, boolean inSync) {
        if (pref >= total.length) {
            grow(Math.max(pref + 1, total.length * 2));
        }
        if (isImbalanced) {
            imbalancedCount += sign;
        }
        if (!guarded) {
            total[pref] += sign;
            if (!inSync) {
                outOfSync[pref] += sign;
            }
            if (isImbalanced) {
                imbalanced[pref] += sign;
                if (!inSync) {
                    outOfSyncImbalanced[pref] += sign;
                }
            }
        }
        if (isImbalanced && !deleting) {
            candidateCount += sign;
            candidatesPerBroker[pref] += sign;
        }
        if (sign < 0
                && (imbalancedCount < 0
                        || candidateCount < 0
                        || imbalanced[pref] < 0
                        || outOfSync[pref] < 0
                        || outOfSyncImbalanced[pref] < 0
                        || candidatesPerBroker[pref] < 0
                        || total[pref] < 0)) {
            // A share taken back that was never added: the replay lost track of a partition's previous state.
            throw new IllegalStateException(
                    "a count below zero at broker index " + pref + " after taking back a share");
        }
    }

    private void grow(int n) {
        total = Arrays.copyOf(total, n);
        imbalanced = Arrays.copyOf(imbalanced, n);
        outOfSync = Arrays.copyOf(outOfSync, n);
        outOfSyncImbalanced = Arrays.copyOf(outOfSyncImbalanced, n);
        candidatesPerBroker = Arrays.copyOf(candidatesPerBroker, n);
    }

    /** The counts now, copied and sized to {@code brokers} indices. */
    ClusterState.Counts copy(int brokers) {
        if (brokers > total.length) {
            grow(brokers);
        }
        return new ClusterState.Counts(
                Arrays.copyOf(total, brokers),
                Arrays.copyOf(imbalanced, brokers),
                Arrays.copyOf(outOfSync, brokers),
                Arrays.copyOf(outOfSyncImbalanced, brokers),
                Arrays.copyOf(candidatesPerBroker, brokers),
                imbalancedCount,
                candidateCount);
    }
}
