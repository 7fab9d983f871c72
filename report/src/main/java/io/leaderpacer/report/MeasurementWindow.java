package io.leaderpacer.report;

import java.util.OptionalLong;

/**
 * The window after a broker's unfencing over which producers' P99 is measured, as the load test and the simulator
 * both measure it: a set length, kept open until a tail after the broker leads again when that is later.
 *
 * <p>Why a tail: a paced catch-up hands leadership back long after a fixed window of 90 s has closed, and the return
 * of leadership costs latency of its own (evidence runs 8 and 9 measured their paced rounds' P99 without it). Why one
 * rule for both: a model compared with a real run must measure over the same seconds.
 *
 * @param lengthMs      the set window; 0 = until recovery (the window closes when the broker leads again)
 * @param releaseTailMs how long after recovery the window stays open at least; 0 = a fixed window of the set length
 */
public record MeasurementWindow(long lengthMs, long releaseTailMs) {

    /**
     * The load test's tail after recovery (the broker leads 99 % of its preferred partitions). Why 30 s: the return of
     * leadership is part of the recovery producers feel (every moved partition's producers learn the new leader);
     * 30 s covers the burst of moves and the producers' metadata refresh after it with room to spare (evidence run 8:
     * 2-8 s of raised per-second P99).
     */
    public static final long RELEASE_TAIL_MS = 30_000;

    public MeasurementWindow {
        if (lengthMs < 0 || releaseTailMs < 0) {
            throw new IllegalArgumentException(
                    "window " + lengthMs + " ms and tail " + releaseTailMs + " ms must not be negative");
        }
    }

    /** A window that covers the return of leadership with the load test's tail. */
    public static MeasurementWindow coveringRelease(long lengthMs) {
        return new MeasurementWindow(lengthMs, RELEASE_TAIL_MS);
    }

    /**
     * When the window closes, in ms after it opened; {@link Long#MAX_VALUE} while that is not yet known (it depends on
     * a recovery still to come).
     *
     * @param recoveredAfterMs when the broker led again, in ms after the window opened; empty while it has not
     */
    public long endMs(OptionalLong recoveredAfterMs) {
        if (lengthMs == 0) {
            return recoveredAfterMs.orElse(Long.MAX_VALUE);
        }
        if (releaseTailMs == 0) {
            return lengthMs;
        }
        return recoveredAfterMs.isEmpty()
                ? Long.MAX_VALUE
                : Math.max(lengthMs, recoveredAfterMs.getAsLong() + releaseTailMs);
    }
}
