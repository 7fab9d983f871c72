package io.leaderpacer.engine.cluster;

/**
 * A growable map from broker id to compact index, open addressing over primitive ints: the lookups on the
 * replay and run paths do no boxing. Ids are non-negative; -1 means absent.
 */
final class IntIndexMap {

    /** Keys as {@code id + 1} (0 = empty slot), power-of-two sized. */
    private int[] keys = new int[32];
    /** The index stored with the key in the same slot. */
    private int[] values = new int[32];
    private int size;

    int get(int id) {
        if (id < 0) {
            return -1;
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
