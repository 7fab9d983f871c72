package io.leaderpacer.engine.pacing;

import io.leaderpacer.engine.config.CatchUpPacing;

import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;

import static io.leaderpacer.engine.pacing.CatchUpPacer.bytesText;

/**
 * Pacing's promise that it may slow a catch-up, never stall it: over windows of {@value #WINDOW_MS} ms it judges
 * whether the bytes behind fell, and if not, what held them (the rate in force, someone else's rate, or something it
 * cannot see), and says what to do about it as a value ({@link Stall}); {@link CatchUpPacer} applies it. Kept apart
 * from the rate rules (static, adaptive, deadline) because it overrides all of them.
 */
final class StallDetector {

    /** The window: longer than Kafka's quota window (11 samples of 1 s), so a rate shows in it. */
    static final long WINDOW_MS = 15_000;
    /** Fetched at least this share of what the rate allowed: the throttle holds the catch-up. */
    static final int SATURATED_PERCENT = 70;
    /** Bytes behind fell by at most this share of what was fetched: the fetches went to keeping up with inflow. */
    static final int STALL_FALL_PERCENT = 10;
    /** Windows in a row whose bytes behind did not fall, though the rate in force did not hold them, taken as a stall. */
    static final int UNHELD_STALLS = 2;

    private StallDetector() {}

    /**
     * What a stall calls for.
     *
     * @param raisedBytes the rate to raise to (the pacer escapes when it is not above the rate in force); empty: escape
     *                    now, whatever the rate
     * @param what        the stall in words, for the reason
     */
    record Stall(OptionalLong raisedBytes, String what) {}

    /**
     * The episode after this look, and the stall found when a window ended with one.
     *
     * @param episode the episode with this look's flows in its window (a new window opened when one ended)
     */
    record Verdict(PacingEpisode episode, Optional<Stall> stall) {}

    /**
     * One look of a broker that is up with its bytes behind known: adds the look's flows to the window, and when the
     * window has run its length, judges it and opens the next. A window without a stall whose flows were measured
     * raises the episode's floor to half again its inflow (a rate under it could not keep up).
     *
     * @param ep the episode with this look observed ({@link PacingEpisode#observe})
     */
    static Verdict look(BrokerSignals s, PacingEpisode ep, long sinceLastMs, CatchUpPacing config, long nowMs) {
        long bytes = s.bytesBehind().getAsLong();
        ep = addLook(s, ep, nowMs, sinceLastMs);
        if (nowMs - ep.window().start().atMs() < WINDOW_MS) {
            return new Verdict(ep, Optional.empty());
        }
        PacingEpisode.Window w = ep.window();
        ep = ep.withWindow(PacingEpisode.Window.openAt(bytes, nowMs));
        ep = ep.withUnheld(unheldAfter(ep, w, nowMs));
        Optional<Stall> stall = judge(s, ep, w, config, nowMs);
        if (stall.isPresent()) {
            return new Verdict(ep.withUnheld(0), stall);
        }
        if (measured(w, nowMs)) {
            ep = ep.withFloor(Math.min(config.ceilingBytes(), Math.round(inflowPerSecond(w) * 1.5)));
        }
        return new Verdict(ep, Optional.empty());
    }

    /** The window with this look's flows added (opened at this look when none is open). */
    private static PacingEpisode addLook(BrokerSignals s, PacingEpisode ep, long nowMs, long sinceLast) {
        PacingEpisode.Window w = ep.window();
        if (!w.start().present()) {
            return ep.withWindow(PacingEpisode.Window.openAt(s.bytesBehind().getAsLong(), nowMs));
        }
        if (s.flow().known() && sinceLast > 0) {
            long foreign = s.foreignRateBytes().orElse(-1);
            double allowed = foreign >= 0 ? Math.max(0, foreign - s.flow().charged()) : ep.rateBytes();
            w = w.add(
                    sinceLast,
                    s.flow().fetchBytesPerSecond().getAsDouble(),
                    s.flow().inflowBytesPerSecond().getAsDouble(),
                    allowed,
                    foreign);
        }
        return ep.withWindow(w);
    }

    /** Whether flows were measured over at least half the window's time. */
    private static boolean measured(PacingEpisode.Window w, long nowMs) {
        return w.spanMs() * 2 >= nowMs - w.start().atMs() && w.allowed() > 0;
    }

    private static double inflowPerSecond(PacingEpisode.Window w) {
        return w.inflow() * 1000.0 / w.spanMs();
    }

    /**
     * At the end of a window: whether catch-up stalled, and if so the raised rate (or the escape, under someone
     * else's rate).
     *
     * @param ep the episode with its next window open
     * @param w  the window that ended
     */
    private static Optional<Stall> judge(
            BrokerSignals s, PacingEpisode ep, PacingEpisode.Window w, CatchUpPacing config, long nowMs) {
        if (!measured(w, nowMs)) {
            return judgeByBytes(s, ep, w, config, nowMs);
        }
        double inflowBps = inflowPerSecond(w);
        if (falling(w)) {
            return Optional.empty();
        }
        boolean held = held(w);
        String flows = String.format(
                Locale.ROOT,
                "fetched %s of the %s allowed, %s of it inflow",
                RateText.of(Math.round(w.fetched() * 1000.0 / w.spanMs())),
                RateText.of(Math.round(w.allowed() * 1000.0 / w.spanMs())),
                RateText.of(Math.round(inflowBps)));
        if (held && w.underForeignRate()) {
            return Optional.of(new Stall(
                    OptionalLong.empty(),
                    "catch-up stalled under someone else's follower rate " + RateText.of(w.foreignBytes()) + " ("
                            + flows
                            + "), which pacing does not change: its replicas come off pacing's throttle,"
                            + " unthrottled until it is back in every ISR"));
        }
        String what;
        if (held) {
            what = "catch-up stalled under its throttle: " + flows;
        } else if (ep.unheld() < UNHELD_STALLS) {
            return Optional.empty();
        } else {
            what = String.format(
                    Locale.ROOT,
                    "bytes behind did not fall for %d windows of %d s (%s), though the rate did not hold the"
                            + " catch-up: something else holds it",
                    UNHELD_STALLS,
                    WINDOW_MS / 1000,
                    flows);
        }
        long raised = Math.min(
                config.ceilingBytes(),
                Math.max(
                        Math.round(inflowBps * 2),
                        Math.max(ep.rateBytes() + config.minRateBytes(), ep.rateBytes() * 3 / 2)));
        return Optional.of(new Stall(OptionalLong.of(raised), what));
    }

    /** Where the flows were not measured: a stall when bytes behind did not fall at all over the window. */
    private static Optional<Stall> judgeByBytes(
            BrokerSignals s, PacingEpisode ep, PacingEpisode.Window w, CatchUpPacing config, long nowMs) {
        long bytes = s.bytesBehind().getAsLong();
        if (bytes <= 0 || bytes < w.start().bytes()) {
            return Optional.empty();
        }
        String what = String.format(
                Locale.ROOT,
                "bytes behind did not fall in %d s (%s to %s)",
                (nowMs - w.start().atMs()) / 1000,
                bytesText(w.start().bytes()),
                bytesText(bytes));
        long raised = Math.min(
                config.ceilingBytes(), Math.max(ep.rateBytes() + config.minRateBytes(), ep.rateBytes() * 3 / 2));
        return Optional.of(new Stall(OptionalLong.of(raised), what));
    }

    /** Whether bytes behind fell by more than {@value #STALL_FALL_PERCENT} % of what was fetched over the window. */
    private static boolean falling(PacingEpisode.Window w) {
        return (w.fetched() - w.inflow()) * 100 > w.fetched() * STALL_FALL_PERCENT;
    }

    /** Whether the catch-up fetched at least {@value #SATURATED_PERCENT} % of what the rate in force left it. */
    private static boolean held(PacingEpisode.Window w) {
        return w.fetched() * 100 >= w.allowed() * SATURATED_PERCENT;
    }

    /**
     * Stall windows in a row not held by the rate in force, counting the window {@code w} that just ended: one more
     * when its bytes behind did not fall and the rate did not hold them; else none.
     */
    private static int unheldAfter(PacingEpisode ep, PacingEpisode.Window w, long nowMs) {
        if (!measured(w, nowMs) || falling(w) || held(w)) {
            return 0;
        }
        return ep.unheld() + 1;
    }
}
