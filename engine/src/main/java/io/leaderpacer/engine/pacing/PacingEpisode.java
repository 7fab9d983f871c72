package io.leaderpacer.engine.pacing;

import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * One broker's pacing episode as the next decision must remember it: from its first look as recovering until it is
 * back in every ISR.
 *
 * @param startMs   the first look that found it recovering: the max-wait counts from here
 * @param rateBytes the rate in force
 * @param escaped   whether the max-wait ran out (unthrottled until it is in sync)
 * @param changes   when the rate last changed and was last cut, and the floor the progress guard set
 * @param guard     the progress guard's mark: bytes behind, and when, at the start of its window
 * @param last      the previous look's bytes behind, and when, with the smoothed catch-up rate
 */
record PacingEpisode(long startMs, long rateBytes, boolean escaped, Changes changes, Mark guard, Last last) {

    /**
     * When the rate last changed and last was cut ({@link Long#MIN_VALUE}: never), and the least rate a cut may set:
     * the last rate the progress guard raised to (0 before it did), since a rate under it stalled catch-up.
     */
    record Changes(long changedAtMs, long cutAtMs, long floorBytes) {
    }

    /** Bytes behind at a time; {@code bytes} is -1 when none was taken. */
    record Mark(long bytes, long atMs) {
        static final Mark NONE = new Mark(-1, Long.MIN_VALUE);

        boolean present() {
            return bytes >= 0;
        }
    }

    /** The previous look, the smoothed rate at which bytes behind fell, and the most bytes behind seen. */
    record Last(Mark mark, OptionalDouble bytesPerSecond, long peakBytes) {
        static final Last NONE = new Last(Mark.NONE, OptionalDouble.empty(), -1);
    }

    static PacingEpisode start(long nowMs, long rateBytes) {
        return new PacingEpisode(nowMs, rateBytes, false, new Changes(nowMs, Long.MIN_VALUE, 0), Mark.NONE, Last.NONE);
    }

    PacingEpisode withRate(long rate, long nowMs, boolean cut) {
        return new PacingEpisode(startMs, rate, escaped, new Changes(nowMs, cut ? nowMs : changes.cutAtMs(),
                changes.floorBytes()), guard, last);
    }

    /** The progress guard raised the rate: a cut may not go below it again in this episode. */
    PacingEpisode raisedByGuard(long rate, long nowMs) {
        return new PacingEpisode(startMs, rate, escaped, new Changes(nowMs, changes.cutAtMs(), rate), guard, last);
    }

    PacingEpisode escape() {
        return new PacingEpisode(startMs, rateBytes, true, changes, Mark.NONE, Last.NONE);
    }

    PacingEpisode withGuard(Mark mark) {
        return new PacingEpisode(startMs, rateBytes, escaped, changes, mark, last);
    }

    /** Down again: the bytes behind it had no longer tell how it catches up. */
    PacingEpisode forgetLooks() {
        return new PacingEpisode(startMs, rateBytes, escaped, changes, Mark.NONE, Last.NONE);
    }

    /** This look's bytes behind, folded into the smoothed catch-up rate (half the new, half the old). */
    PacingEpisode observe(long bytes, long nowMs) {
        OptionalDouble rate = last.bytesPerSecond();
        if (last.mark().present() && nowMs > last.mark().atMs()) {
            double now = (last.mark().bytes() - bytes) * 1000.0 / (nowMs - last.mark().atMs());
            rate = OptionalDouble.of(rate.isPresent() ? (rate.getAsDouble() + now) / 2 : now);
        }
        return new PacingEpisode(startMs, rateBytes, escaped, changes, guard, new Last(new Mark(bytes, nowMs), rate,
                Math.max(last.peakBytes(), bytes)));
    }

    /** Bytes behind over the smoothed rate, when it falls. */
    OptionalLong etaMs() {
        if (!last.mark().present() || last.bytesPerSecond().isEmpty() || last.bytesPerSecond().getAsDouble() <= 0) {
            return OptionalLong.empty();
        }
        return OptionalLong.of((long) (last.mark().bytes() * 1000.0 / last.bytesPerSecond().getAsDouble()));
    }
}
