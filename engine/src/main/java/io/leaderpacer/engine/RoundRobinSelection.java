package io.leaderpacer.engine;

import java.util.Arrays;

/**
 * Round-robin across preferred brokers (KIP-1358's fairness rule): candidates are bucketed by
 * preferred broker, and each pass over the brokers, in ascending id starting from a position
 * that rotates run to run, takes one election from every non-empty bucket until the cap.
 *
 * <p>{@link #order} is the rule itself, over bucket sizes only: which bucket each election comes from. Both
 * ways of holding the buckets use it, so they take the same elections: {@link #select} buckets a snapshot's
 * electable candidates with a counting sort into one array (three arrays, no boxed values); a
 * {@link io.leaderpacer.engine.cluster.ClusterState} keeps its buckets, and the run reads only the entries taken.
 */
final class RoundRobinSelection {

    /** The outcome: chosen candidate positions in selection order, and the broker id round-robin started from. */
    record Result(int[] chosen, int chosenCount, int startBroker) {}

    /**
     * Which bucket each election comes from.
     *
     * @param bucketOfPick per election in selection order, the index of its bucket (in ascending broker id)
     * @param picks        how many elections
     * @param startBroker  the broker id round-robin started from (the previous start when no bucket has any)
     */
    record Order(int[] bucketOfPick, int picks, int startBroker) {}

    private RoundRobinSelection() {}

    /**
     * @param ids       broker id of each non-empty bucket, ascending
     * @param sizes     size of each bucket, all {@code > 0}
     * @param buckets   how many buckets
     * @param cap       max elections
     * @param lastStart the broker id the previous run started from, or -1: this run starts from the first
     *                  bucket with a greater id, wrapping
     */
    static Order order(int[] ids, int[] sizes, int buckets, int cap, int lastStart) {
        if (buckets == 0) {
            return new Order(new int[0], 0, lastStart);
        }
        int startSlot = 0;
        for (int s = 0; s < buckets; s++) {
            if (ids[s] > lastStart) {
                startSlot = s;
                break;
            }
        }
        long total = 0;
        for (int s = 0; s < buckets; s++) {
            total += sizes[s];
        }
        int limit = (int) Math.min(cap, total);
        int[] picks = new int[limit];
        int[] left = Arrays.copyOf(sizes, buckets);
        // Live buckets in rotation order; exhausted ones are dropped so each pass costs only live brokers.
        int[] live = new int[buckets];
        for (int s = 0; s < buckets; s++) {
            live[s] = (startSlot + s) % buckets;
        }
        int liveCount = buckets;
        int n = 0;
        while (n < limit) {
            int keep = 0;
            for (int j = 0; j < liveCount && n < limit; j++) {
                int slot = live[j];
                picks[n++] = slot;
                if (--left[slot] > 0) {
                    live[keep++] = slot;
                }
            }
            liveCount = keep;
        }
        return new Order(picks, n, ids[startSlot]);
    }

    /**
     * @param brokerOf   broker index of the preferred broker of each electable candidate
     * @param count      number of electable candidates (a prefix of {@code brokerOf})
     * @param idOfIndex  the broker id of each index (indices need not follow id order)
     * @param cap        max elections
     * @param lastStart  the broker id the previous run started from, or -1: this run starts from the first
     *                   eligible broker with a greater id, wrapping
     */
    static Result select(int[] brokerOf, int count, int[] idOfIndex, int cap, int lastStart) {
        int tableSize = idOfIndex.length;
        int[] bucketSize = new int[tableSize];
        for (int i = 0; i < count; i++) {
            bucketSize[brokerOf[i]]++;
        }
        int nonEmpty = 0;
        for (int s : bucketSize) {
            if (s > 0) {
                nonEmpty++;
            }
        }
        // Buckets in ascending broker id: ids packed with their index in one long, sorted.
        long[] byId = new long[nonEmpty];
        int k = 0;
        for (int b = 0; b < tableSize; b++) {
            if (bucketSize[b] > 0) {
                byId[k++] = ((long) idOfIndex[b] << 32) | b;
            }
        }
        Arrays.sort(byId);
        int[] ids = new int[nonEmpty];
        int[] sizes = new int[nonEmpty];
        int[] begin = new int[nonEmpty];
        int[] slotOfBroker = new int[tableSize];
        int offset = 0;
        for (k = 0; k < nonEmpty; k++) {
            int b = (int) byId[k];
            ids[k] = (int) (byId[k] >>> 32);
            sizes[k] = bucketSize[b];
            begin[k] = offset;
            offset += bucketSize[b];
            slotOfBroker[b] = k;
        }
        int[] cursor = begin.clone();
        int[] bucketed = new int[count];
        for (int i = 0; i < count; i++) {
            bucketed[cursor[slotOfBroker[brokerOf[i]]]++] = i;
        }
        Order order = order(ids, sizes, nonEmpty, cap, lastStart);
        int[] chosen = new int[order.picks()];
        for (int j = 0; j < order.picks(); j++) {
            chosen[j] = bucketed[begin[order.bucketOfPick()[j]]++];
        }
        return new Result(chosen, order.picks(), order.startBroker());
    }
}
