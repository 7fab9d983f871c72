package io.leaderpacer.agent;

import io.leaderpacer.agent.core.RunRecord;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;

/**
 * The most recent runs, oldest first, bounded.
 *
 * <p>Why bounded: the agent runs for months; {@code /status} and the demo's timeline only need the recent past.
 * Written by the run thread, read by the HTTP thread: every method is synchronized and returns copies.
 */
final class RunHistory {

    /** How many runs to keep. */
    private final int capacity;
    /** The runs, oldest first. */
    private final Deque<RunRecord> runs = new ArrayDeque<>();

    RunHistory(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("history capacity must be >= 1, was " + capacity);
        }
        this.capacity = capacity;
    }

    synchronized void add(RunRecord run) {
        runs.addLast(run);
        while (runs.size() > capacity) {
            runs.removeFirst();
        }
    }

    synchronized List<RunRecord> all() {
        return new ArrayList<>(runs);
    }

    synchronized Optional<RunRecord> last() {
        return Optional.ofNullable(runs.peekLast());
    }
}
