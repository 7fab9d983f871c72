package io.leaderpacer.engine.cluster;

import java.util.Arrays;

/**
 * Per preferred broker, the candidates a {@code wait-for-sync} run elects without looking at them: imbalanced,
 * their preferred (first assigned) replica in the ISR, not under reassignment, not in a deleted topic. Walked in
 * ascending position order, the order round-robin takes them in.
 *
 * <p>Why per broker: the gate holds back or lets through a broker's partitions as a whole, so a gated broker's
 * bucket is skipped by its size, and round-robin reads only the first entries of the buckets it takes from.
 * While the broker is active every member is electable (the preferred replica is a valid leader); when it is not,
 * the run evaluates the members one by one.
 *
 * <p>How the order is kept without a bit set per broker over a million positions: every partition has a
 * <em>slot</em> in the list of its first replica's broker, slots in ascending position, and a bucket is a bit
 * set over its broker's slots. A new partition takes the next position, so it is appended. A partition whose
 * first replica changes (a reassignment completed) leaves a dead slot behind and is appended to its new broker's
 * list, or, when it is not the last position there, that list is rebuilt in order: O(the broker's partitions),
 * only on a change of preferred replica.
 */
final class CandidateBuckets {

    private static final int DEAD = -1;

    /** Per broker index, the positions of its slots, ascending among the live ones; {@link #DEAD} for a freed slot. */
    private int[][] slotPositions = new int[16][];
    /** Per broker index, how many slots are used (live and dead). */
    private int[] slotCounts = new int[16];
    /** Per broker index, the bucket as bits over its slots. */
    private long[][] bits = new long[16][];
    /** Per broker index, how many members the bucket has. */
    private int[] sizes = new int[16];
    /**
     * Per broker index, the largest position ever given a slot in its list (at least every live one): a
     * position above it can be appended without breaking the order.
     */
    private int[] maxPlaced = new int[16];
    /** Per position, its slot in its broker's list, or -1 before it has one. */
    private int[] slotOf = new int[0];

    /** The partition at {@code pos} has {@code broker} as its first replica now ({@code previous} before, or -1). */
    void place(int pos, int previous, int broker) {
        if (pos >= slotOf.length) {
            int old = slotOf.length;
            slotOf = Arrays.copyOf(slotOf, Math.max(pos + 1, old * 2));
            Arrays.fill(slotOf, old, slotOf.length, -1);
        }
        if (previous == broker && slotOf[pos] >= 0) {
            return;
        }
        ensureBroker(broker);
        if (previous >= 0 && slotOf[pos] >= 0) {
            slotPositions[previous][slotOf[pos]] = DEAD;
        }
        int n = slotCounts[broker];
        int[] list = slotPositions[broker];
        if (n == 0 || maxPlaced[broker] < pos) {
            if (n == list.length) {
                list = slotPositions[broker] = Arrays.copyOf(list, Math.max(8, n * 2));
            }
            list[n] = pos;
            slotOf[pos] = n;
            slotCounts[broker] = n + 1;
            maxPlaced[broker] = pos;
            if ((n >>> 6) >= bits[broker].length) {
                bits[broker] = Arrays.copyOf(bits[broker], Math.max(1, bits[broker].length * 2));
            }
        } else {
            rebuild(broker, pos);
        }
    }

    /** The partition at {@code pos} is gone: its slot is freed. */
    void forget(int pos, int broker) {
        if (pos < slotOf.length && slotOf[pos] >= 0) {
            slotPositions[broker][slotOf[pos]] = DEAD;
            slotOf[pos] = -1;
        }
    }

    /** The position's membership of its broker's bucket (it must have been {@linkplain #place placed}). */
    void set(int broker, int pos, boolean member) {
        int slot = slotOf[pos];
        long bit = 1L << slot;
        long[] b = bits[broker];
        boolean was = (b[slot >>> 6] & bit) != 0;
        if (member && !was) {
            b[slot >>> 6] |= bit;
            sizes[broker]++;
        } else if (!member && was) {
            b[slot >>> 6] &= ~bit;
            sizes[broker]--;
        }
    }

    /** How many members the broker's bucket has. */
    int size(int broker) {
        return broker < sizes.length ? sizes[broker] : 0;
    }

    /** The first member slot of the broker's bucket at or after {@code fromSlot}, or -1. */
    int nextSlot(int broker, int fromSlot) {
        long[] b = broker < bits.length ? bits[broker] : null;
        if (b == null) {
            return -1;
        }
        int w = fromSlot >>> 6;
        if (w >= b.length) {
            return -1;
        }
        long word = b[w] & (-1L << fromSlot);
        while (true) {
            if (word != 0) {
                return (w << 6) + Long.numberOfTrailingZeros(word);
            }
            if (++w >= b.length) {
                return -1;
            }
            word = b[w];
        }
    }

    /**
     * The first slot of the broker's list whose position is at or after {@code pos}: a binary search over the
     * ascending live positions that steps over dead slots.
     */
    int firstSlotAtOrAfter(int broker, int pos) {
        if (broker >= slotPositions.length || slotPositions[broker] == null) {
            return 0;
        }
        int[] list = slotPositions[broker];
        int lo = 0;
        int hi = slotCounts[broker];
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            int live = mid;
            while (live < hi && list[live] == DEAD) {
                live++;
            }
            if (live < hi && list[live] < pos) {
                lo = live + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** How many members the broker's bucket has in slots at or after {@code fromSlot}. */
    int countFromSlot(int broker, int fromSlot) {
        int total = size(broker);
        if (total == 0 || fromSlot <= 0) {
            return total;
        }
        long[] b = bits[broker];
        int before = 0;
        int w = fromSlot >>> 6;
        for (int i = 0; i < Math.min(w, b.length); i++) {
            before += Long.bitCount(b[i]);
        }
        if (w < b.length) {
            before += Long.bitCount(b[w] & ~(-1L << fromSlot));
        }
        return total - before;
    }

    /** The position in a slot of the broker's list. */
    int positionAt(int broker, int slot) {
        return slotPositions[broker][slot];
    }

    /** Rewrites the broker's list in ascending position with {@code pos} inserted, dead slots dropped. */
    private void rebuild(int broker, int pos) {
        int[] old = slotPositions[broker];
        long[] oldBits = bits[broker];
        int n = slotCounts[broker];
        int[] list = new int[Math.max(8, n + 1)];
        long[] newBits = new long[(list.length + 63) >>> 6];
        int k = 0;
        boolean inserted = false;
        for (int s = 0; s <= n; s++) {
            int p = s < n ? old[s] : Integer.MAX_VALUE;
            if (!inserted && pos < p) {
                list[k] = pos;
                slotOf[pos] = k++;
                inserted = true;
            }
            if (s == n || p == DEAD) {
                continue;
            }
            list[k] = p;
            slotOf[p] = k;
            if ((oldBits[s >>> 6] & (1L << s)) != 0) {
                newBits[k >>> 6] |= 1L << k;
            }
            k++;
        }
        slotPositions[broker] = list;
        bits[broker] = newBits;
        slotCounts[broker] = k;
        maxPlaced[broker] = list[k - 1];
    }

    private void ensureBroker(int broker) {
        if (broker >= slotPositions.length) {
            int n = Math.max(broker + 1, slotPositions.length * 2);
            slotPositions = Arrays.copyOf(slotPositions, n);
            slotCounts = Arrays.copyOf(slotCounts, n);
            bits = Arrays.copyOf(bits, n);
            sizes = Arrays.copyOf(sizes, n);
            maxPlaced = Arrays.copyOf(maxPlaced, n);
        }
        if (slotPositions[broker] == null) {
            slotPositions[broker] = new int[8];
            bits[broker] = new long[1];
        }
    }
}
