package io.leaderpacer.engine.cluster;

import java.util.Arrays;

/**
 * A compact index over the broker ids a snapshot names: ids ascending, numbered {@code 0 .. size-1}.
 *
 * <p>Why: a broker id is any {@code node.id} from 0 to 2<sup>31</sup>-1, so a table indexed by id could
 * need two billion entries for a three-broker cluster. Every per-broker table of the engine is indexed by
 * this compact index instead, and since the index follows ascending id, walking the indices walks the
 * brokers in id order (round-robin and the reports rely on it). The id-to-index lookup is an open-addressing
 * hash of primitive ints: no boxing on the per-partition paths.
 */
public final class BrokerIndex {

    /** Broker ids by index, ascending, distinct. */
    private final int[] ids;
    /** Open-addressing table of ids (slots hold {@code id + 1}, 0 = empty), power-of-two sized. */
    private final int[] slotIds;
    /** The index of the id in the same slot of {@link #slotIds}. */
    private final int[] slotIndex;
    /**
     * When every id is below {@link IntIndexMap#DIRECT_LIMIT} (most clusters), {@code index + 1} per id (0 =
     * absent): a snapshot build looks up several ids per partition, and a direct read is cheaper than a probe.
     * {@code null} otherwise.
     */
    private final int[] direct;

    private BrokerIndex(int[] ascendingDistinctIds) {
        this.ids = ascendingDistinctIds;
        int capacity = Integer.highestOneBit(Math.max(4, ids.length * 2 + 1)) << 1;
        this.slotIds = new int[capacity];
        this.slotIndex = new int[capacity];
        int mask = capacity - 1;
        for (int i = 0; i < ids.length; i++) {
            int s = mix(ids[i]) & mask;
            while (slotIds[s] != 0) {
                s = (s + 1) & mask;
            }
            slotIds[s] = ids[i] + 1;
            slotIndex[s] = i;
        }
        int max = ids.length == 0 ? -1 : ids[ids.length - 1];
        if (max < IntIndexMap.DIRECT_LIMIT) {
            direct = new int[max + 1];
            for (int i = 0; i < ids.length; i++) {
                direct[ids[i]] = i + 1;
            }
        } else {
            direct = null;
        }
    }

    /** The index over these ids (any order, duplicates allowed); every id must be {@code >= 0}. */
    public static BrokerIndex of(int[] ids, int count) {
        int[] sorted = Arrays.copyOf(ids, count);
        Arrays.sort(sorted);
        int n = 0;
        for (int i = 0; i < sorted.length; i++) {
            if (sorted[i] < 0) {
                throw new IllegalArgumentException("negative broker id " + sorted[i]);
            }
            if (n == 0 || sorted[n - 1] != sorted[i]) {
                sorted[n++] = sorted[i];
            }
        }
        return new BrokerIndex(Arrays.copyOf(sorted, n));
    }

    /** How many brokers are indexed. */
    public int size() {
        return ids.length;
    }

    /** The broker id at an index. */
    public int idAt(int index) {
        return ids[index];
    }

    /** The index of a broker id, or -1 when the snapshot does not name it. */
    public int indexOf(int id) {
        if (id < 0) {
            return -1;
        }
        if (direct != null) {
            return id < direct.length ? direct[id] - 1 : -1;
        }
        int mask = slotIds.length - 1;
        int s = mix(id) & mask;
        int key = id + 1;
        while (true) {
            int k = slotIds[s];
            if (k == key) {
                return slotIndex[s];
            }
            if (k == 0) {
                return -1;
            }
            s = (s + 1) & mask;
        }
    }

    /** The first index whose id is greater than {@code id} (wrapping to 0), or -1 when empty. */
    public int firstIndexAfter(int id) {
        if (ids.length == 0) {
            return -1;
        }
        int pos = Arrays.binarySearch(ids, id);
        int next = pos >= 0 ? pos + 1 : -pos - 1;
        return next >= ids.length ? 0 : next;
    }

    private static int mix(int id) {
        int h = id * 0x9E3779B9;
        return h ^ (h >>> 16);
    }
}
