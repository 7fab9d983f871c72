package io.leaderpacer.simulator.sim;

import java.util.PriorityQueue;

/**
 * The simulation's only notion of time: actions ordered by logical time, then by the order in
 * which they were scheduled. The tie-break by sequence number is what makes two simulations with the
 * same seed take exactly the same path, whatever the priority queue's internal layout.
 */
public final class EventQueue {

    /** One scheduled action. */
    private record Entry(long atMs, long seq, Runnable action) implements Comparable<Entry> {
        @Override
        public int compareTo(Entry o) {
            int byTime = Long.compare(atMs, o.atMs);
            return byTime != 0 ? byTime : Long.compare(seq, o.seq);
        }
    }

    private final PriorityQueue<Entry> queue = new PriorityQueue<>();
    /** Next sequence number; strictly increasing so ties resolve in scheduling order. */
    private long nextSeq;
    /** Time of the action being run (or last run). */
    private long nowMs;

    /** The current logical time. */
    public long nowMs() {
        return nowMs;
    }

    /** Schedules an action at an absolute time, which must not be in the past. */
    public void at(long atMs, Runnable action) {
        if (atMs < nowMs) {
            throw new IllegalArgumentException("cannot schedule at " + atMs + " ms, before now (" + nowMs + " ms)");
        }
        queue.add(new Entry(atMs, nextSeq++, action));
    }

    /** Schedules an action after a delay from now. */
    public void after(long delayMs, Runnable action) {
        at(nowMs + delayMs, action);
    }

    /**
     * Runs actions in order until the queue is empty or the next action is after {@code endMs}.
     * Actions may schedule more actions.
     */
    public void runUntil(long endMs) {
        while (!queue.isEmpty() && queue.peek().atMs() <= endMs) {
            Entry e = queue.poll();
            nowMs = e.atMs();
            e.action().run();
        }
        nowMs = Math.max(nowMs, endMs);
    }

    public int pending() {
        return queue.size();
    }
}
