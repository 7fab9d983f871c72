package io.leaderpacer.engine;

import io.leaderpacer.engine.cluster.CandidateIndex;
import io.leaderpacer.engine.cluster.ClusterState;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The selection of a run over a {@link ClusterState} in assignment order (an empty deprioritized list), reading
 * the state's {@link CandidateIndex} instead of every candidate: the same elections and counts as the run over
 * the equivalent snapshot, at a cost that follows what the run elects or must look at.
 *
 * <p>{@code immediate} walks, in Kafka's order, only the candidates not known to change nothing, and stops at the
 * cap. {@code wait-for-sync} takes a gated broker's bucket by its size (all of it would be elected: the
 * preferred replica is in the ISR and active), evaluates only the candidates outside the buckets' fast case
 * (and the buckets of brokers that are not active), and lets round-robin read the first entries of the buckets it
 * takes from, merged in position order with the evaluated ones.
 */
final class StateSelection {

    private StateSelection() {}

    static RunSelection immediate(ClusterState s, EffectiveReplicaOrder order, int cap, int lastStart) {
        CandidateIndex ci = s.candidates();
        int size = s.brokerCount();
        int[] elected = new int[size];
        List<Election> elections = new ArrayList<>(Math.min(cap, 1024));
        int pos = ci.nextToExamine(0);
        for (; pos >= 0 && elections.size() < cap; pos = ci.nextToExamine(pos + 1)) {
            int pref = s.firstReplicaIndexAt(pos);
            int target = PreferredElection.targetAt(s, order, pos, pref);
            if (target != PreferredElection.NO_CHANGE) {
                elections.add(new Election(s.partitionAt(pos).id(), s.leaderAt(pos), target, s.brokerIdAt(pref)));
                elected[pref]++;
            }
        }
        // Kafka's loop stops at the cap; the elections it deferred are the valid ones among the candidates it did
        // not examine, from `pos` on. They are counted without a walk: an active broker's bucket members are all
        // valid (counted by rank); the rest of the walk (inactive brokers' buckets, candidates to evaluate,
        // reassignments with the preferred replica in the ISR) is evaluated one by one, as a wait-for-sync run does.
        int[] deferred = new int[size];
        if (pos >= 0) {
            for (int b = 0; b < size; b++) {
                if (ci.bucketSize(b) == 0) {
                    continue;
                }
                if (s.isActiveAt(b)) {
                    deferred[b] += ci.bucketCountAtOrAfter(b, pos);
                } else {
                    for (int slot = ci.nextBucketSlot(b, ci.firstBucketSlotAtOrAfter(b, pos));
                            slot >= 0;
                            slot = ci.nextBucketSlot(b, slot + 1)) {
                        deferred[b] += valid(s, order, ci.bucketPosition(b, slot));
                    }
                }
            }
            for (int p = ci.nextToEvaluate(pos); p >= 0; p = ci.nextToEvaluate(p + 1)) {
                deferred[s.firstReplicaIndexAt(p)] += valid(s, order, p);
            }
            for (int p = ci.nextReassigningInIsr(pos); p >= 0; p = ci.nextReassigningInIsr(p + 1)) {
                deferred[s.firstReplicaIndexAt(p)] += valid(s, order, p);
            }
        }
        return RunSelection.capped(elections, elected, deferred, lastStart);
    }

    /** 1 when the candidate at {@code pos} is a valid election, else 0. */
    private static int valid(ClusterState s, EffectiveReplicaOrder order, int pos) {
        return PreferredElection.targetAt(s, order, pos, s.firstReplicaIndexAt(pos)) != PreferredElection.NO_CHANGE
                ? 1
                : 0;
    }

    static RunSelection waitForSync(
            ClusterState s, EffectiveReplicaOrder order, boolean[] blocked, int cap, int lastStart) {
        CandidateIndex ci = s.candidates();
        int size = s.brokerCount();
        int[] electable = new int[size];
        int[] skipped = new int[size];
        int[] elected = new int[size];
        boolean[] fromBucket = new boolean[size];
        Extras extras = new Extras();
        for (int pos = ci.nextToEvaluate(0); pos >= 0; pos = ci.nextToEvaluate(pos + 1)) {
            if (!s.reassigningOrDeletingAt(pos)) {
                extras.consider(s, order, pos, blocked, electable, skipped);
            }
        }
        for (int b = 0; b < size; b++) {
            int bucket = ci.bucketSize(b);
            if (bucket == 0) {
                continue;
            }
            if (!s.isActiveAt(b)) {
                for (int slot = ci.nextBucketSlot(b, 0); slot >= 0; slot = ci.nextBucketSlot(b, slot + 1)) {
                    extras.consider(s, order, ci.bucketPosition(b, slot), blocked, electable, skipped);
                }
            } else if (blocked[b]) {
                skipped[b] += bucket;
            } else {
                electable[b] += bucket;
                fromBucket[b] = true;
            }
        }
        int[] extraBegin = new int[size];
        int[] extraEnd = new int[size];
        extras.sortByBrokerThenPosition(extraBegin, extraEnd);

        // Round-robin over the brokers with something electable, in ascending id.
        long[] byId = new long[size];
        int n = 0;
        for (int b = 0; b < size; b++) {
            if (electable[b] > 0) {
                byId[n++] = ((long) s.brokerIdAt(b) << 32) | b;
            }
        }
        Arrays.sort(byId, 0, n);
        int[] ids = new int[n];
        int[] sizes = new int[n];
        int[] brokerOf = new int[n];
        int[] bucketCursor = new int[n];
        int[] extraCursor = new int[n];
        for (int k = 0; k < n; k++) {
            int b = (int) byId[k];
            ids[k] = (int) (byId[k] >>> 32);
            sizes[k] = electable[b];
            brokerOf[k] = b;
            bucketCursor[k] = fromBucket[b] ? ci.nextBucketSlot(b, 0) : -1;
            extraCursor[k] = extraBegin[b];
        }
        RoundRobinSelection.Order picks = RoundRobinSelection.order(ids, sizes, n, cap, lastStart);
        List<Election> elections = new ArrayList<>(Math.min(cap, 1024));
        for (int j = 0; j < picks.picks(); j++) {
            int k = picks.bucketOfPick()[j];
            int b = brokerOf[k];
            int fromBucketPos = bucketCursor[k] >= 0 ? ci.bucketPosition(b, bucketCursor[k]) : Integer.MAX_VALUE;
            int fromExtrasPos = extraCursor[k] < extraEnd[b] ? extras.positionAt(extraCursor[k]) : Integer.MAX_VALUE;
            int pos;
            int target;
            if (fromBucketPos < fromExtrasPos) {
                pos = fromBucketPos;
                target = s.brokerIdAt(b);
                bucketCursor[k] = ci.nextBucketSlot(b, bucketCursor[k] + 1);
            } else {
                pos = fromExtrasPos;
                target = PreferredElection.targetAt(s, order, pos, b);
                extraCursor[k]++;
            }
            elections.add(new Election(s.partitionAt(pos).id(), s.leaderAt(pos), target, s.brokerIdAt(b)));
            elected[b]++;
        }
        return RunSelection.roundRobin(elections, elected, electable, skipped, picks.startBroker());
    }

    /** Electable candidates found by evaluating them, as (preferred broker index, position) pairs in one long. */
    private static final class Extras {
        private long[] keys = new long[16];
        private int count;

        void consider(
                ClusterState s,
                EffectiveReplicaOrder order,
                int pos,
                boolean[] blocked,
                int[] electable,
                int[] skipped) {
            int pref = s.firstReplicaIndexAt(pos);
            if (PreferredElection.targetAt(s, order, pos, pref) == PreferredElection.NO_CHANGE) {
                return;
            }
            if (blocked[pref]) {
                skipped[pref]++;
                return;
            }
            electable[pref]++;
            if (count == keys.length) {
                keys = Arrays.copyOf(keys, count * 2);
            }
            keys[count++] = ((long) pref << 32) | pos;
        }

        /** Sorts the pairs and records, per broker index, where its run of positions begins and ends. */
        void sortByBrokerThenPosition(int[] begin, int[] end) {
            Arrays.sort(keys, 0, count);
            for (int i = 0; i < count; i++) {
                int b = (int) (keys[i] >>> 32);
                if (i == 0 || (int) (keys[i - 1] >>> 32) != b) {
                    begin[b] = i;
                }
                end[b] = i + 1;
            }
        }

        int positionAt(int i) {
            return (int) keys[i];
        }
    }
}
