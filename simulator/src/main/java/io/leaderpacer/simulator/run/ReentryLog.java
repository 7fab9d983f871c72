package io.leaderpacer.simulator.run;

import io.leaderpacer.simulator.model.ModelCluster;
import io.leaderpacer.simulator.sim.IntList;

import java.util.Arrays;
import java.util.function.LongSupplier;

/**
 * When each preferred partition of a restarted broker re-entered its ISR after the unfencing: the timeline the load
 * test measures on a real cluster (first, p50, p90, last), so model and measurement can be set side by side.
 *
 * <p>A listener in front of the latency classes: it sees every committed ISR change at the millisecond it happens,
 * not at the load model's tick.
 */
final class ReentryLog implements ModelCluster.Listener {

    private final ModelCluster.Listener next;
    private final LongSupplier clock;
    private ModelCluster cluster;
    /** The restarted broker whose re-entry the partition awaits, or -1. */
    private int[] awaiting = new int[0];
    /** Unfencing time per broker, for the times after it. */
    private long[] unfencedAtMs = new long[0];
    /** Re-entry times in ms after the broker's unfencing, in the order they happened. */
    private final IntList reentries = new IntList();

    private int preferred;

    ReentryLog(ModelCluster.Listener next, LongSupplier clock) {
        this.next = next;
        this.clock = clock;
    }

    void attach(ModelCluster state, int partitions, int brokers) {
        cluster = state;
        awaiting = new int[partitions];
        Arrays.fill(awaiting, -1);
        unfencedAtMs = new long[brokers];
    }

    /** The broker was unfenced after a restart: its preferred partitions outside the ISR are awaited again. */
    void unfenced(int b, long nowMs) {
        unfencedAtMs[b] = nowMs;
        preferred = 0;
        reentries.clear();
        for (int p = 0; p < awaiting.length; p++) {
            if (cluster.preferred(p) == b) {
                preferred++;
                awaiting[p] = cluster.isrContains(p, b) ? -1 : b;
                if (awaiting[p] < 0) {
                    reentries.add(0);
                }
            }
        }
    }

    @Override
    public void leaderChanged(int p, int previousLeader, int newLeader) {
        next.leaderChanged(p, previousLeader, newLeader);
    }

    @Override
    public void isrChanged(int p) {
        next.isrChanged(p);
        int b = awaiting.length == 0 ? -1 : awaiting[p];
        if (b >= 0 && cluster.isrContains(p, b)) {
            awaiting[p] = -1;
            reentries.add((int) Math.min(Integer.MAX_VALUE, clock.getAsLong() - unfencedAtMs[b]));
        }
    }

    /** The preferred partitions of the last restarted broker and when they re-entered (ms after unfencing, sorted). */
    Reentries result() {
        int[] t = new int[reentries.size()];
        for (int i = 0; i < t.length; i++) {
            t[i] = reentries.get(i);
        }
        Arrays.sort(t);
        return new Reentries(preferred, t);
    }
}
