package io.leaderpacer.engine.pacing;

import java.util.Map;
import java.util.TreeMap;

/**
 * What the next pacing decision must remember: the open episode of each recovering broker. Immutable; a new agent
 * (a takeover) starts from {@link #empty()} and re-opens the episodes of the brokers it finds recovering.
 */
public final class PacingMemory {

    private static final PacingMemory EMPTY = new PacingMemory(Map.of());

    private final Map<Integer, PacingEpisode> episodes;

    PacingMemory(Map<Integer, PacingEpisode> episodes) {
        this.episodes = Map.copyOf(new TreeMap<>(episodes));
    }

    public static PacingMemory empty() {
        return EMPTY;
    }

    /** The brokers with an open episode. */
    public java.util.Set<Integer> brokers() {
        return new java.util.TreeSet<>(episodes.keySet());
    }

    PacingEpisode episode(int broker) {
        return episodes.get(broker);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PacingMemory m && m.episodes.equals(episodes);
    }

    @Override
    public int hashCode() {
        return episodes.hashCode();
    }

    @Override
    public String toString() {
        return "PacingMemory" + new TreeMap<>(episodes);
    }
}
