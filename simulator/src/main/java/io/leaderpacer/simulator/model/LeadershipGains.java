package io.leaderpacer.simulator.model;

import java.util.Arrays;

/**
 * How many leaderships each broker gained in the last few seconds: the size of the "burst" its
 * producers and consumers are reconnecting, refreshing metadata and retrying through.
 *
 * <p>A ring of per-second counts per broker with a running sum, so a tick costs one step per
 * broker whatever the window.
 */
public final class LeadershipGains {

    private final int windowSeconds;
    /** counts[b * windowSeconds + (second mod window)]. */
    private final int[] counts;
    /** The second each ring cell currently holds, so stale cells are recognised. */
    private final long[] cellSecond;

    private final long[] inWindow;

    public LeadershipGains(int brokers, int windowSeconds) {
        this.windowSeconds = windowSeconds;
        counts = new int[brokers * windowSeconds];
        cellSecond = new long[brokers * windowSeconds];
        Arrays.fill(cellSecond, Long.MIN_VALUE);
        inWindow = new long[brokers];
    }

    /** Broker {@code b} gained one leadership at {@code nowMs}. */
    public void gained(int b, long nowMs) {
        long second = Math.floorDiv(nowMs, 1000);
        int cell = cell(b, second);
        if (cellSecond[cell] != second) {
            inWindow[b] -= counts[cell];
            counts[cell] = 0;
            cellSecond[cell] = second;
        }
        counts[cell]++;
        inWindow[b]++;
    }

    /** Leaderships {@code b} gained in the window ending at {@code nowMs}. */
    public long inWindow(int b, long nowMs) {
        if (inWindow[b] == 0) {
            return 0;
        }
        long second = Math.floorDiv(nowMs, 1000);
        for (int i = 0; i < windowSeconds; i++) {
            int cell = b * windowSeconds + i;
            if (cellSecond[cell] != Long.MIN_VALUE && cellSecond[cell] <= second - windowSeconds) {
                inWindow[b] -= counts[cell];
                counts[cell] = 0;
                cellSecond[cell] = Long.MIN_VALUE;
            }
        }
        return inWindow[b];
    }

    /** Whether any broker has gains in its window (lets quiet ticks skip work). */
    public boolean any(long nowMs) {
        for (int b = 0; b < inWindow.length; b++) {
            if (inWindow[b] > 0 && inWindow(b, nowMs) > 0) {
                return true;
            }
        }
        return false;
    }

    private int cell(int b, long second) {
        return b * windowSeconds + (int) Math.floorMod(second, (long) windowSeconds);
    }
}
