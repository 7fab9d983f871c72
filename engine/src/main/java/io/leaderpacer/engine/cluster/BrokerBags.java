package io.leaderpacer.engine.cluster;

import java.util.Arrays;

/**
 * Per broker index, an unordered bag of partition positions with constant-time add and remove.
 *
 * <p>Why: {@link ClusterState} files every candidate whose preferred replica is out of a non-empty ISR while its
 * leader is an ISR member (a broker still catching up) under that leader. Such a candidate changes nothing while
 * its leader is active, so a run need not look at it; when the leader's broker is fenced or shuts down, this bag
 * names exactly the candidates that become worth a look, without a pass over every partition. Leaders change
 * with every election, so the bag keeps no order (swap-remove).
 */
final class BrokerBags {

    private static final int[] EMPTY = new int[0];

    /** Members per broker index; the first {@link #sizes} entries are live. */
    private int[][] members = new int[16][];

    private int[] sizes = new int[16];
    /** Per position, its index in its bag (valid only while it is in one). */
    private int[] indexOf = new int[16];

    void add(int broker, int pos) {
        if (broker >= members.length) {
            int n = Math.max(broker + 1, members.length * 2);
            members = Arrays.copyOf(members, n);
            sizes = Arrays.copyOf(sizes, n);
        }
        if (pos >= indexOf.length) {
            indexOf = Arrays.copyOf(indexOf, Math.max(pos + 1, indexOf.length * 2));
        }
        int[] bag = members[broker];
        if (bag == null) {
            bag = EMPTY;
        }
        int size = sizes[broker];
        if (size == bag.length) {
            bag = Arrays.copyOf(bag, Math.max(4, size * 2));
        }
        members[broker] = bag;
        bag[size] = pos;
        indexOf[pos] = size;
        sizes[broker] = size + 1;
    }

    /** Removes a position known to be in the broker's bag. */
    void remove(int broker, int pos) {
        int[] bag = members[broker];
        int last = --sizes[broker];
        int at = indexOf[pos];
        int moved = bag[last];
        bag[at] = moved;
        indexOf[moved] = at;
    }

    /** How many positions the broker's bag holds. */
    int size(int broker) {
        return broker < sizes.length ? sizes[broker] : 0;
    }

    /** The {@code k}-th position of the broker's bag ({@code k < size(broker)}), in no particular order. */
    int at(int broker, int k) {
        return members[broker][k];
    }
}
