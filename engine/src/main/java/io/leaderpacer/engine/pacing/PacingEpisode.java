package io.leaderpacer.engine.pacing;

import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * One broker's pacing episode as the next decision must remember it: from its first look as recovering until it is
 * back in every ISR.
 *
 * @param clock     when it started, and how long the broker has been paced while up (the max-wait's measure)
 * @param rateBytes the rate in force
 * @param escaped   whether it escaped (the max-wait ran out, or catch-up stalled at the max rate): unthrottled until
 *                  it is in sync
 * @param changes   when the rate last changed and was last cut, and the least rate a cut may set
 * @param window    the stall detector's window: bytes behind at its start, and what was fetched and flowed in since
 * @param last      the previous look's bytes behind, and when, with the smoothed catch-up rate and the peak
 * @param unheld    how many stall windows in a row ended with bytes behind not falling while the catch-up fetched
 *                  less than its rate allowed (held by something the rule does not see)
 */
record PacingEpisode(
        Clock clock, long rateBytes, boolean escaped, Changes changes, Window window, Last last, int unheld) {

    /** Time constant of the smoothed catch-up rate the ETA divides by: longer than Kafka's 11 s quota window. */
    static final long ETA_SMOOTHING_MS = 20_000;

    /**
     * The episode's time.
     *
     * @param startMs    the first look that found the broker recovering (down, or up and catching up)
     * @param pacedMs    how long it has been paced while up, summed over the looks that found it up: time down does not
     *                   count, since a broker that is down is not held back by its throttle
     * @param lastLookMs  the previous look's time, or {@link Long#MIN_VALUE} when the previous look found it down
     * @param downSinceMs the first look of the current time down, or {@link Long#MIN_VALUE} while it is up
     * @param upSinceMs   the first look of the current time up (about its unfencing), or {@link Long#MIN_VALUE} while
     *                    it is down; a successor that takes the episode over counts from its own first look
     */
    record Clock(long startMs, long pacedMs, long lastLookMs, long downSinceMs, long upSinceMs) {

        /** A clock that has not seen the broker up yet in its current time up. */
        Clock(long startMs, long pacedMs, long lastLookMs, long downSinceMs) {
            this(startMs, pacedMs, lastLookMs, downSinceMs, Long.MIN_VALUE);
        }

        /** This look found the broker up: the time since the previous look counts if that one did too. */
        Clock up(long nowMs) {
            long add = lastLookMs != Long.MIN_VALUE && nowMs > lastLookMs ? nowMs - lastLookMs : 0;
            return new Clock(
                    startMs, pacedMs + add, nowMs, Long.MIN_VALUE, upSinceMs == Long.MIN_VALUE ? nowMs : upSinceMs);
        }

        /** This look found the broker down. */
        Clock down(long nowMs) {
            return new Clock(
                    startMs,
                    pacedMs,
                    Long.MIN_VALUE,
                    downSinceMs == Long.MIN_VALUE ? nowMs : downSinceMs,
                    Long.MIN_VALUE);
        }

        /** This look found it up, but not paced: no time counts, and its time up goes on. */
        Clock upUnpaced(long nowMs) {
            return new Clock(
                    startMs, pacedMs, Long.MIN_VALUE, Long.MIN_VALUE, upSinceMs == Long.MIN_VALUE ? nowMs : upSinceMs);
        }

        /** How long it has been down, at {@code nowMs}; 0 while it is up. */
        long downMs(long nowMs) {
            return downSinceMs == Long.MIN_VALUE ? 0 : Math.max(0, nowMs - downSinceMs);
        }

        /** How long it has been up since its first look up in its current time up, at {@code nowMs}; 0 while down. */
        long upMs(long nowMs) {
            return upSinceMs == Long.MIN_VALUE ? 0 : Math.max(0, nowMs - upSinceMs);
        }
    }

    /**
     * When the rate last changed and last was cut ({@link Long#MIN_VALUE}: never), and the least rate a cut may set:
     * half again the inflow the stall detector last measured (0 before it measured any), since under the inflow
     * catch-up stops.
     */
    record Changes(long changedAtMs, long cutAtMs, long floorBytes) {}

    /** Bytes behind at a time; {@code bytes} is -1 when none was taken. */
    record Mark(long bytes, long atMs) {
        static final Mark NONE = new Mark(-1, Long.MIN_VALUE);

        boolean present() {
            return bytes >= 0;
        }
    }

    /**
     * What the stall detector saw since its window opened: bytes behind then, and, over the looks whose flows were
     * measured, the time they covered, the bytes fetched and flowed in, and the bytes the rate in force allowed the
     * catch-up (pacing's rate, or someone else's less the in-sync bytes counted on it); and the rate in force at the
     * last look when it was someone else's ({@code -1} when pacing's).
     */
    record Window(Mark start, long spanMs, double fetched, double inflow, double allowed, long foreignBytes) {
        static final Window NONE = new Window(Mark.NONE, 0, 0, 0, 0, -1);

        static Window openAt(long bytes, long nowMs) {
            return new Window(new Mark(bytes, nowMs), 0, 0, 0, 0, -1);
        }

        /**
         * @param allowedBps what the rate in force leaves the catch-up, bytes per second
         * @param foreign    that rate when it is someone else's, else -1
         */
        Window add(long ms, double fetchBps, double inflowBps, double allowedBps, long foreign) {
            double s = ms / 1000.0;
            return new Window(
                    start,
                    spanMs + ms,
                    fetched + fetchBps * s,
                    inflow + inflowBps * s,
                    allowed + allowedBps * s,
                    foreign);
        }

        /** Whether the rate in force at the window's last look was someone else's. */
        boolean underForeignRate() {
            return foreignBytes >= 0;
        }
    }

    /** The previous look, the smoothed rate at which bytes behind fell, and the most bytes behind seen. */
    record Last(Mark mark, OptionalDouble bytesPerSecond, long peakBytes) {
        static final Last NONE = new Last(Mark.NONE, OptionalDouble.empty(), -1);
    }

    static PacingEpisode start(long nowMs, long rateBytes) {
        return new PacingEpisode(
                new Clock(nowMs, 0, Long.MIN_VALUE, Long.MIN_VALUE),
                rateBytes,
                false,
                new Changes(nowMs, Long.MIN_VALUE, 0),
                Window.NONE,
                Last.NONE,
                0);
    }

    /**
     * An episode an earlier instance started: its clock (the time paced while up, and since when it has been down),
     * rate, escape and peak, as its successor resumes it.
     */
    static PacingEpisode resume(PacingMemory.Resumed r) {
        return new PacingEpisode(
                new Clock(r.startMs(), r.pacedMs(), Long.MIN_VALUE, r.downSinceMs()),
                r.rateBytes(),
                r.escaped(),
                new Changes(Long.MIN_VALUE, Long.MIN_VALUE, 0),
                Window.NONE,
                new Last(Mark.NONE, OptionalDouble.empty(), r.peakBytes()),
                0);
    }

    /** The same episode at another rate, no change recorded (a rate held within new bounds). */
    PacingEpisode clampedTo(long rate) {
        return new PacingEpisode(clock, rate, escaped, changes, window, last, unheld);
    }

    PacingEpisode withRate(long rate, long nowMs, boolean cut) {
        return new PacingEpisode(
                clock,
                rate,
                escaped,
                new Changes(nowMs, cut ? nowMs : changes.cutAtMs(), changes.floorBytes()),
                window,
                last,
                unheld);
    }

    PacingEpisode withClock(Clock c) {
        return new PacingEpisode(c, rateBytes, escaped, changes, window, last, unheld);
    }

    PacingEpisode withFloor(long floorBytes) {
        return new PacingEpisode(
                clock,
                rateBytes,
                escaped,
                new Changes(changes.changedAtMs(), changes.cutAtMs(), floorBytes),
                window,
                last,
                unheld);
    }

    PacingEpisode escape() {
        return new PacingEpisode(clock, rateBytes, true, changes, Window.NONE, last, 0);
    }

    /** The count of stall windows in a row not held by the rate in force. */
    PacingEpisode withUnheld(int n) {
        return new PacingEpisode(clock, rateBytes, escaped, changes, window, last, n);
    }

    PacingEpisode withWindow(Window w) {
        return new PacingEpisode(clock, rateBytes, escaped, changes, w, last, unheld);
    }

    /** Down again, at {@code nowMs}: the bytes behind it had no longer tell how it catches up. */
    PacingEpisode forgetLooks(long nowMs) {
        return withoutLooks(clock.down(nowMs));
    }

    /**
     * A look at which it is not paced because its leaders still count it caught up: nothing of it counts towards the
     * max-wait while it is up (the down clock goes on while it is down), and what it fetches says nothing of a rate.
     */
    PacingEpisode graced(long nowMs, boolean up) {
        return withoutLooks(up ? clock.upUnpaced(nowMs) : clock.down(nowMs));
    }

    /**
     * On clock {@code c}, its looks so far forgotten: no window, no mark or smoothed rate for the next look to measure
     * against, nothing unheld; the peak bytes behind, its rate and its changes kept.
     */
    private PacingEpisode withoutLooks(Clock c) {
        return new PacingEpisode(
                c,
                rateBytes,
                escaped,
                changes,
                Window.NONE,
                new Last(Mark.NONE, OptionalDouble.empty(), last.peakBytes()),
                0);
    }

    /**
     * This look's bytes behind, folded into the smoothed catch-up rate: an average over about
     * {@value #ETA_SMOOTHING_MS} ms, weighted by the time each look covers.
     */
    PacingEpisode observe(long bytes, long nowMs) {
        OptionalDouble rate = last.bytesPerSecond();
        if (last.mark().present() && nowMs > last.mark().atMs()) {
            long dt = nowMs - last.mark().atMs();
            double now = (last.mark().bytes() - bytes) * 1000.0 / dt;
            double alpha = dt / (double) (dt + ETA_SMOOTHING_MS);
            rate = OptionalDouble.of(rate.isPresent() ? rate.getAsDouble() + alpha * (now - rate.getAsDouble()) : now);
        }
        return new PacingEpisode(
                clock,
                rateBytes,
                escaped,
                changes,
                window,
                new Last(new Mark(bytes, nowMs), rate, Math.max(last.peakBytes(), bytes)),
                unheld);
    }

    /**
     * Bytes behind over the rate at which they fall, when they fall: the smoothed rate, but never more than the rate
     * in force while paced, which bounds what the throttled replicas can fetch (a fall measured faster than that came
     * from replicas left out of the throttle, and does not last).
     */
    OptionalLong etaMs(boolean paced) {
        if (!last.mark().present()
                || last.bytesPerSecond().isEmpty()
                || last.bytesPerSecond().getAsDouble() <= 0) {
            return OptionalLong.empty();
        }
        double fall = last.bytesPerSecond().getAsDouble();
        if (paced) {
            fall = Math.min(fall, rateBytes);
        }
        return OptionalLong.of((long) (last.mark().bytes() * 1000.0 / fall));
    }
}
