package io.leaderpacer.engine.pacing;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

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

    /**
     * What an instance that takes over must know of an episode to go on with it: when it started, how long the broker
     * has been paced while up (so that a takeover neither restarts nor stops the max-wait's clock), the rate in force,
     * whether it escaped, the most bytes behind seen (what "done" is a share of), and since when it has been down
     * ({@link Long#MIN_VALUE} while up), so that a takeover does not restart the max-wait of a broker that is down
     * either.
     */
    public record Resumed(
            long startMs, long pacedMs, long rateBytes, boolean escaped, long peakBytes, long downSinceMs) {
        public Resumed {
            if (pacedMs < 0 || rateBytes < 1) {
                throw new IllegalArgumentException(
                        "pacedMs must be >= 0 and rateBytes >= 1, were " + pacedMs + ", " + rateBytes);
            }
        }

        /** An episode whose broker was up at its last look. */
        public Resumed(long startMs, long pacedMs, long rateBytes, boolean escaped, long peakBytes) {
            this(startMs, pacedMs, rateBytes, escaped, peakBytes, Long.MIN_VALUE);
        }
    }

    /** The memory a successor resumes from its predecessor's episodes, by broker. */
    public static PacingMemory resumed(Map<Integer, Resumed> episodes) {
        Map<Integer, PacingEpisode> m = new TreeMap<>();
        episodes.forEach((b, r) -> m.put(b, PacingEpisode.resume(r)));
        return new PacingMemory(m);
    }

    /** Each open episode as a successor would resume it, by broker: what the agent keeps where a successor finds it. */
    public Map<Integer, Resumed> summary() {
        Map<Integer, Resumed> out = new TreeMap<>();
        episodes.forEach((b, e) -> out.put(
                b,
                new Resumed(
                        e.clock().startMs(),
                        e.clock().pacedMs(),
                        e.rateBytes(),
                        e.escaped(),
                        Math.max(0, e.last().peakBytes()),
                        e.clock().downSinceMs())));
        return out;
    }

    /** The brokers with an open episode. */
    public Set<Integer> brokers() {
        return new TreeSet<>(episodes.keySet());
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
