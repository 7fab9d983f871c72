package io.leaderpacer.engine;

/**
 * Round-robin across preferred brokers (the seed's fairness rule): candidates are bucketed by
 * preferred broker, and each pass over the brokers, in ascending id starting from a position
 * that rotates run to run, takes one election from every non-empty bucket until the cap.
 *
 * <p>Buckets are built with a counting sort into one array, so a run over hundreds of thousands
 * of candidates allocates three arrays and no boxed values.
 */
final class RoundRobinSelection {

    /** The outcome: chosen candidate positions in selection order, and the broker id round-robin started from. */
    record Result(int[] chosen, int chosenCount, int startBroker) {
    }

    private RoundRobinSelection() {
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
        if (nonEmpty == 0) {
            return new Result(new int[0], 0, lastStart);
        }
        // Slots in ascending broker id: ids packed with their index in one long, sorted.
        long[] byId = new long[nonEmpty];
        int k = 0;
        for (int b = 0; b < tableSize; b++) {
            if (bucketSize[b] > 0) {
                byId[k++] = ((long) idOfIndex[b] << 32) | b;
            }
        }
        java.util.Arrays.sort(byId);
        int[] brokers = new int[nonEmpty];
        int[] begin = new int[nonEmpty];
        int[] end = new int[nonEmpty];
        int[] slotOfBroker = new int[tableSize];
        int offset = 0;
        for (k = 0; k < nonEmpty; k++) {
            int b = (int) byId[k];
            brokers[k] = (int) (byId[k] >>> 32);
            begin[k] = offset;
            offset += bucketSize[b];
            end[k] = begin[k];
            slotOfBroker[b] = k;
        }
        int[] bucketed = new int[count];
        for (int i = 0; i < count; i++) {
            int slot = slotOfBroker[brokerOf[i]];
            bucketed[end[slot]++] = i;
        }
        int[] cursor = begin.clone();

        int startSlot = 0;
        for (int s = 0; s < nonEmpty; s++) {
            if (brokers[s] > lastStart) {
                startSlot = s;
                break;
            }
            if (s == nonEmpty - 1) {
                startSlot = 0;
            }
        }

        int limit = Math.min(cap, count);
        int[] chosen = new int[limit];
        int n = 0;
        // Active slots in rotation order; exhausted buckets are dropped so each pass costs only live brokers.
        int[] live = new int[nonEmpty];
        for (int s = 0; s < nonEmpty; s++) {
            live[s] = (startSlot + s) % nonEmpty;
        }
        int liveCount = nonEmpty;
        while (n < limit) {
            int keep = 0;
            for (int j = 0; j < liveCount && n < limit; j++) {
                int slot = live[j];
                chosen[n++] = bucketed[cursor[slot]++];
                if (cursor[slot] < end[slot]) {
                    live[keep++] = slot;
                }
            }
            if (n >= limit) {
                break;
            }
            liveCount = keep;
        }
        return new Result(chosen, n, brokers[startSlot]);
    }
}
