package io.leaderpacer.agent;

import java.time.Duration;
import java.util.Objects;

/**
 * Delays between attempts to reach a cluster that is unreachable when the agent starts: doubling from
 * {@code initial}, never above {@code max}.
 *
 * <p>Why: an agent started before its cluster (or during an outage) should wait for it without hammering it and
 * without filling the log; Kafka's own five-minute retry for a failed periodic task is meant for a controller
 * that is already running, not for a process that has not made contact yet.
 *
 * @param initial delay after the first failed attempt
 * @param max     the longest delay
 */
public record StartupBackoff(Duration initial, Duration max) {

    /** 1 s, 2 s, 4 s ... up to 60 s. */
    public static final StartupBackoff DEFAULT = new StartupBackoff(Duration.ofSeconds(1), Duration.ofSeconds(60));

    public StartupBackoff {
        Objects.requireNonNull(initial, "initial");
        Objects.requireNonNull(max, "max");
        if (initial.isNegative() || initial.isZero() || max.compareTo(initial) < 0) {
            throw new IllegalArgumentException("need 0 < initial <= max, got initial=" + initial + ", max=" + max);
        }
    }

    /** The delay after the given failed attempt (1 = the first). */
    public long delayMs(int attempt) {
        long ms = initial.toMillis();
        for (int i = 1; i < attempt && ms < max.toMillis(); i++) {
            ms *= 2;
        }
        return Math.min(ms, max.toMillis());
    }
}
