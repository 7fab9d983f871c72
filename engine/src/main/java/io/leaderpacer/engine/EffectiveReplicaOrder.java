package io.leaderpacer.engine;

import io.leaderpacer.engine.cluster.PartitionState;

import java.util.Arrays;
import java.util.Set;

/**
 * The replica order leadership is chosen from (KIP-491): the assignment order with deprioritized
 * brokers moved to the end, keeping their relative order. Deprioritized brokers come last; they
 * are never excluded. With an empty list this is the assignment order, as in Kafka today.
 */
public final class EffectiveReplicaOrder {

    private static final EffectiveReplicaOrder ASSIGNMENT_ORDER = new EffectiveReplicaOrder(new int[0]);

    /**
     * Deprioritized broker ids, ascending; empty when the list is empty (the common, fast case). A sorted
     * array, not a table by id: an id may be up to 2^31-1, and the list is short.
     */
    private final int[] deprioritized;

    private EffectiveReplicaOrder(int[] deprioritized) {
        this.deprioritized = deprioritized;
    }

    /** The order for a deprioritized list (possibly empty). */
    public static EffectiveReplicaOrder of(Set<Integer> deprioritizedBrokers) {
        if (deprioritizedBrokers.isEmpty()) {
            return ASSIGNMENT_ORDER;
        }
        return new EffectiveReplicaOrder(deprioritizedBrokers.stream()
                .mapToInt(Integer::intValue)
                .sorted()
                .distinct()
                .toArray());
    }

    /** Whether this is plain assignment order (an empty list), where the preferred replica is the first one. */
    public boolean isAssignmentOrder() {
        return deprioritized.length == 0;
    }

    public boolean isDeprioritized(int broker) {
        return deprioritized.length > 0 && Arrays.binarySearch(deprioritized, broker) >= 0;
    }

    /** The first replica in effective order: the partition's preferred leader. */
    public int preferred(PartitionState p) {
        if (deprioritized.length == 0) {
            return p.replicaAt(0);
        }
        for (int i = 0; i < p.replicaCount(); i++) {
            int r = p.replicaAt(i);
            if (!isDeprioritized(r)) {
                return r;
            }
        }
        return p.replicaAt(0);
    }

    /** The whole effective order, as a new array. */
    public int[] order(PartitionState p) {
        int n = p.replicaCount();
        int[] out = new int[n];
        int k = 0;
        for (int i = 0; i < n; i++) {
            if (!isDeprioritized(p.replicaAt(i))) {
                out[k++] = p.replicaAt(i);
            }
        }
        for (int i = 0; i < n; i++) {
            if (isDeprioritized(p.replicaAt(i))) {
                out[k++] = p.replicaAt(i);
            }
        }
        return out;
    }

    /** The replica at a position of the effective order, without allocating. */
    public int at(PartitionState p, int position) {
        if (deprioritized.length == 0) {
            return p.replicaAt(position);
        }
        int n = p.replicaCount();
        int k = 0;
        for (int pass = 0; pass < 2; pass++) {
            boolean wantDeprioritized = pass == 1;
            for (int i = 0; i < n; i++) {
                int r = p.replicaAt(i);
                if (isDeprioritized(r) == wantDeprioritized) {
                    if (k == position) {
                        return r;
                    }
                    k++;
                }
            }
        }
        throw new IndexOutOfBoundsException("position " + position + " of " + n + " replicas of " + p.id());
    }
}
