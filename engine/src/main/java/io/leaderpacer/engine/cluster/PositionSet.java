package io.leaderpacer.engine.cluster;

import java.util.Arrays;

/**
 * A set of partition positions as bits, walked in ascending position order, with the rank of a position.
 *
 * <p>Why not {@link java.util.BitSet}: a run needs "how many members up to this position" (to report what a run
 * that stopped at the cap did not examine) without copying, and the replay path wants no bounds bookkeeping.
 * Walking an empty stretch costs one word read per 64 positions: a million positions are 16,000 words, a few
 * microseconds.
 */
final class PositionSet {

    /** The members, 64 positions per word. */
    private long[] words = new long[1];

    void add(int pos) {
        int w = pos >>> 6;
        if (w >= words.length) {
            words = Arrays.copyOf(words, Math.max(w + 1, words.length * 2));
        }
        words[w] |= 1L << pos;
    }

    void remove(int pos) {
        int w = pos >>> 6;
        if (w < words.length) {
            words[w] &= ~(1L << pos);
        }
    }

    boolean contains(int pos) {
        int w = pos >>> 6;
        return w < words.length && (words[w] & (1L << pos)) != 0;
    }

    /** The first member at or after {@code from}, or -1. */
    int next(int from) {
        int w = from >>> 6;
        if (from < 0 || w >= words.length) {
            return -1;
        }
        long word = words[w] & (-1L << from);
        while (true) {
            if (word != 0) {
                return (w << 6) + Long.numberOfTrailingZeros(word);
            }
            if (++w >= words.length) {
                return -1;
            }
            word = words[w];
        }
    }

    /** How many members are at positions {@code <= pos} (0 for a negative {@code pos}). */
    int rankThrough(int pos) {
        if (pos < 0) {
            return 0;
        }
        int last = Math.min(pos >>> 6, words.length - 1);
        int n = 0;
        for (int w = 0; w < last; w++) {
            n += Long.bitCount(words[w]);
        }
        if (last == pos >>> 6) {
            n += Long.bitCount(words[last] & (-1L >>> (63 - (pos & 63))));
        } else {
            n += Long.bitCount(words[last]);
        }
        return n;
    }
}
