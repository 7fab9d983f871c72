package io.leaderpacer.engine;

import io.leaderpacer.engine.cluster.ClusterState;
import io.leaderpacer.engine.cluster.ClusterView;
import io.leaderpacer.engine.cluster.PartitionState;

import java.util.Arrays;

/**
 * Per-broker tallies from one pass over the snapshot, and the candidates with their effective
 * preferred replica, so that the gate and the selection never walk replica lists twice.
 *
 * <p>Tables are indexed by the snapshot's compact {@link BrokerIndex}, never by broker id (an id may be
 * up to 2^31-1). Partitions under reassignment or whose topic is being deleted are left out of the gate's
 * counts (KIP-1358's guards "still apply before the gate is evaluated"). Of the candidates, a partition
 * of a topic being deleted is always left out (Kafka's controller removes a deleted topic's partitions at
 * once, so its loop never sees one); one under reassignment only when the caller asks (wait-for-sync).
 *
 * <p>The pass also collects the candidates (imbalanced partitions that are not left out), so that
 * the rest of the run visits only them: in a large cluster most partitions are balanced, and
 * reading each of them a second time would cost as much as the whole first pass.
 */
final class PreferredCounts {

    /**
     * Positions (in iteration order) of the candidates: imbalanced partitions not left out. Filled by the pass
     * over a snapshot; empty for an incremental state, whose run reads its {@code CandidateIndex} instead.
     */
    private final int[] candidates;
    /** Broker index of the effective preferred replica of each candidate, parallel to {@link #candidates}. */
    private final int[] candidatePreferred;
    /** How many candidates there are. */
    final int candidateCount;
    /**
     * Per broker index, how many imbalanced partitions outside a deleted topic prefer it (reassigning ones
     * included): a broker with any has a line in the report even when the gate counts nothing for it.
     */
    final int[] candidatesPerBroker;
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

    private PreferredCounts(
            int[] candidates,
            int[] candidatePreferred,
            int candidateCount,
            int[] candidatesPerBroker,
            int[] total,
            int[] imbalanced,
            int[] outOfSync,
            int[] outOfSyncImbalanced,
            int imbalancedCount) {
        this.candidates = candidates;
        this.candidatePreferred = candidatePreferred;
        this.candidateCount = candidateCount;
        this.candidatesPerBroker = candidatesPerBroker;
        this.total = total;
        this.imbalanced = imbalanced;
        this.outOfSync = outOfSync;
        this.outOfSyncImbalanced = outOfSyncImbalanced;
        this.imbalancedCount = imbalancedCount;
    }

    /**
     * @param skipReassigning leave partitions under reassignment out of the candidates ({@code wait-for-sync}
     *                        keeps KIP-1358's guard; Kafka's own loop, hence {@code immediate}, does not)
     */
    static PreferredCounts of(ClusterView cluster, EffectiveReplicaOrder order, boolean skipReassigning) {
        int n = cluster.positionCount();
        Tally t = new Tally(cluster.brokerCount(), n);
        if (order.isAssignmentOrder()) {
            // The common case: the preferred replica is the first assigned one, and the columns already hold
            // everything this pass needs.
            for (int i = 0; i < n; i++) {
                if (cluster.isEmptyAt(i)) {
                    continue;
                }
                int pref = cluster.firstReplicaIndexAt(i);
                t.add(
                        i,
                        pref,
                        cluster.imbalancedAt(i),
                        cluster.reassigningOrDeletingAt(i),
                        cluster.topicDeletingAt(i) || (skipReassigning && cluster.reassigningOrDeletingAt(i)),
                        cluster.firstReplicaInIsrAt(i),
                        cluster.topicDeletingAt(i));
            }
        } else {
            for (int i = 0; i < n; i++) {
                PartitionState p = cluster.partitionAt(i);
                if (p == null) {
                    continue;
                }
                int prefId = order.preferred(p);
                boolean guarded = p.reassigning() || p.topicDeleting();
                t.add(
                        i,
                        cluster.brokerIndexOf(prefId),
                        p.leader() != prefId,
                        guarded,
                        p.topicDeleting() || (skipReassigning && guarded),
                        p.isrContains(prefId),
                        p.topicDeleting());
            }
        }
        return t.counts();
    }

    /**
     * The counts kept by a {@link io.leaderpacer.engine.cluster.ClusterState} (assignment order only), read, not
     * recomputed; no candidate list (the run walks the state's {@code CandidateIndex}).
     */
    static PreferredCounts fromState(ClusterState state) {
        ClusterState.Counts c = state.counts();
        return new PreferredCounts(
                new int[0],
                new int[0],
                c.candidateCount(),
                c.candidatesPerBroker(),
                c.total(),
                c.imbalanced(),
                c.outOfSync(),
                c.outOfSyncImbalanced(),
                c.imbalancedCount());
    }

    /** The position of the {@code c}-th candidate ({@code c < candidateCount}). */
    int candidateAt(int c) {
        return candidates[c];
    }

    /** The broker index of the effective preferred replica of the {@code c}-th candidate. */
    int preferredAt(int c) {
        return candidatePreferred[c];
    }

    /** The tallies while the pass runs. */
    private static final class Tally {
        private final int[] total;
        private final int[] imbalanced;
        private final int[] outOfSync;
        private final int[] outOfSyncImbalanced;
        private final int[] candidatesPerBroker;
        private int[] candidates;
        private int[] candidatePreferred;
        private int candidateCount;
        private int imbalancedCount;

        Tally(int brokerTableSize, int partitions) {
            total = new int[brokerTableSize];
            imbalanced = new int[brokerTableSize];
            outOfSync = new int[brokerTableSize];
            outOfSyncImbalanced = new int[brokerTableSize];
            candidatesPerBroker = new int[brokerTableSize];
            candidates = new int[Math.max(16, partitions / 8)];
            candidatePreferred = new int[candidates.length];
        }

        PreferredCounts counts() {
            return new PreferredCounts(
                    candidates,
                    candidatePreferred,
                    candidateCount,
                    candidatesPerBroker,
                    total,
                    imbalanced,
                    outOfSync,
                    outOfSyncImbalanced,
                    imbalancedCount);
        }

        /**
         * @param pref       broker index of the effective preferred replica
         * @param guarded    under reassignment or in a topic being deleted: not in the gate's counts
         * @param notElected not a candidate of this run
         * @param deleting   in a topic being deleted: no candidate of any run
         */
        void add(
                int position,
                int pref,
                boolean isImbalanced,
                boolean guarded,
                boolean notElected,
                boolean inSync,
                boolean deleting) {
            if (isImbalanced && !deleting) {
                candidatesPerBroker[pref]++;
            }
            if (isImbalanced) {
                imbalancedCount++;
            }
            if (!guarded) {
                total[pref]++;
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
            if (isImbalanced && !notElected) {
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
