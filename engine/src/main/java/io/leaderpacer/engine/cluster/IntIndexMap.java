package io.leaderpacer.engine.cluster;

import java.util.Arrays;

/**
 * A growable map from broker id to compact index, open addressing over primitive ints: the lookups on the
 * replay and run paths do no boxing. Ids are non-negative; -1 means absent.
 *
 * <p>Most clusters number their brokers from 0 or 1 upwards, so ids below {@value #DIRECT_LIMIT} are kept in a
 * table indexed by id instead (at most 256 KiB): a rebuild looks up several ids per partition, and a direct read is
 * several times cheaper than a probe. Larger ids (any {@code node.id} up to 2^31-1) use the hash alone.
 */
final class IntIndexMap {

    /** Ids below this are looked up directly. */
    static final int DIRECT_LIMIT = 1 << 16;

    /** Per small id, {@code index + 1} (0 = absent), grown to the largest small id put. */
    private int[] direct = new int[64];

    /** Keys as {@code id + 1} (0 = empty slot), power-of-two sized. */
    private int[] keys = new int[32];
    /** The index stored with the key in the same slot. */
    private int[] values = new int[32];

    private int size;

    int get(int id) {
        if (id < 0) {
            return -1;
        }
        if (id < DIRECT_LIMIT) {
            return id < direct.length ? direct[id] - 1 : -1;
        }
        int mask = keys.length - 1;
        int key = id + 1;
        for (int s = mix(id) & mask; ; s = (s + 1) & mask) {
            int k = keys[s];
            if (k == key) {
                return values[s];
            }
            if (k == 0) {
                return -1;
            }
        }
    }

    void put(int id, int index) {
        if (id >= 0 && id < DIRECT_LIMIT) {
            if (id >= direct.length) {
                direct = Arrays.copyOf(direct, Math.min(DIRECT_LIMIT, Math.max(id + 1, direct.length * 2)));
            }
            direct[id] = index + 1;
            return;
        }
        if ((size + 1) * 2 > keys.length) {
            grow();
        }
        insert(id + 1, index);
        size++;
    }

    private void insert(int key, int index) {
        int mask = keys.length - 1;
        int s = mix(key - 1) & mask;
        while (keys[s] != 0 && keys[s] != key) {
            s = (s + 1) & mask;
        }
        keys[s] = key;
        values[s] = index;
    }

    private void grow() {
        int[] oldKeys = keys;
        int[] oldValues = values;
        keys = new int[oldKeys.length * 2];
        values = new int[oldKeys.length * 2];
        for (int s = 0; s < oldKeys.length; s++) {
            if (oldKeys[s] != 0) {
                insert(oldKeys[s], oldValues[s]);
            }
        }
    }

    private static int mix(int id) {
        int h = id * 0x9E3779B9;
        return h ^ (h >>> 16);
    }
}
