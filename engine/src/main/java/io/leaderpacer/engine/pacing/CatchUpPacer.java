package io.leaderpacer.engine.pacing;

import io.leaderpacer.engine.config.CatchUpPacing;
import io.leaderpacer.engine.config.PacingMode;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * Decides how fast each recovering broker may catch up: a pure function of what the agent observed, the settings,
 * the time passed in and the previous decision's memory.
 *
 * <p>The rule, per broker:
 * <ul>
 *   <li>An episode opens at the first look that finds the broker inactive (down, fenced) or catching up, and closes
 *       when it is back in every ISR: it is then no longer listed, so its throttle comes off.</li>
 *   <li>While it is inactive the throttle stays at its rate, so that it is in force when the broker's fetchers
 *       start; nothing is learnt meanwhile.</li>
 *   <li>Static: the configured rate. Adaptive: from the configured rate, changed at most once per
 *       {@value #SIGNAL_SETTLE_MS} ms (a change must show in the canary's signal before the next is judged on it): up
 *       by a quarter while the canary's P99 is under {@value #FAR_UNDER_TARGET_PERCENT} % of the target ratio of its
 *       steady P99, by one step (the min rate) while it is nearer, down to {@value #CUT_PERCENT} % when it is over;
 *       bounded by the min and max rates and never cut below half again the inflow last measured; without a canary
 *       sample it holds.</li>
 *   <li>The stall detector, in both modes, over windows of {@value StallDetector#WINDOW_MS} ms (longer than Kafka's 11 s
 *       quota window): catch-up has stalled when bytes behind fell by at most {@value StallDetector#STALL_FALL_PERCENT} % of what
 *       its replicas fetched; where the flows were not measured, when bytes behind did not fall at all. What it does
 *       depends on what held it:
 *       <ul>
 *         <li>the rate in force: its replicas fetched at least {@value StallDetector#SATURATED_PERCENT} % of what that rate left
 *             them. Under pacing's own rate (which the agent sets above the decided rate by the in-sync bytes Kafka
 *             counts on the same quota), the rate is raised by half (at least to twice the inflow, at most to the max
 *             rate), whatever the canary says; at the max rate, the broker escapes. Under someone else's rate (pacing
 *             uses it and never changes it), the broker escapes at once: pacing's entries come off, so its replicas
 *             are no longer under that rate.</li>
 *         <li>something else (the catch-up fetched less than the rate left it): {@value StallDetector#UNHELD_STALLS} such windows
 *             in a row are taken as a stall too, since a limit the agent does not see (a quota shared with traffic it
 *             cannot measure) is cured the same way, and a broker held by its own capacity loses nothing by a higher
 *             rate; so a catch-up whose bytes behind do not fall is never held by pacing for longer than a few
 *             windows per step up to the max rate, max-wait or not.</li>
 *       </ul>
 *       Pacing may slow catch-up, never stall it.</li>
 *   <li>After the max-wait, counted while the broker is up and paced (not while it is down), the broker escapes:
 *       unthrottled until it is back in every ISR (a new episode can then open).</li>
 *   <li>Until its leaders no longer count it caught up from before it went down ({@link BrokerSignals#caughtUpUntilMs},
 *       its last caught-up fetch plus their {@code replica.lag.time.max.ms}), its partitions with writes are not
 *       throttled: a leader holds its high watermark for such a replica, in the ISR or not
 *       ({@code Partition.maybeIncrementLeaderHW}, KAFKA-15021), so each throttled fetch would hold every
 *       {@code acks=all} write to the partition. Those with no writes hold no one and are throttled, from while it is
 *       down, so that the written ones get its fetches from the first.</li>
 * </ul>
 * What it optimises: the fastest catch-up that keeps the producers of the broker's in-sync partitions within the
 * target ratio of their steady P99, as the canary measures them; it does not see other producers directly.
 */
public final class CatchUpPacer {

    /**
     * The least time between two changes of an adaptive rate: Kafka's quota takes a new rate at the next fetch, and
     * the canary, whose P99 is over windows of 5 s, shows it in its next full window. A change sooner than that would
     * act on a signal from before the last one: the sawtooth of 5 to 45 MiB/s measured inside one catch-up.
     */
    static final long SIGNAL_SETTLE_MS = 6000;
    /** A cut keeps this share of the rate. */
    static final int CUT_PERCENT = 60;
    /** A raise far under the target adds this share (the min rate, when that is more). */
    static final int RAISE_PERCENT = 125;
    /** Under this share of the target ratio, the canary is far from it. */
    static final int FAR_UNDER_TARGET_PERCENT = 75;

    private CatchUpPacer() {}

    /**
     * Decides one look.
     *
     * @param signals what was observed, one entry per broker that hosts replicas (down ones included); a broker with
     *                an open episode and no entry hosts none any more (its replicas moved, or it was removed): its
     *                episode ends
     * @param config  the settings in force
     * @param memory  the previous decision's {@link PacingDecision#nextMemory()}, or {@link PacingMemory#empty()}
     * @param nowMs   the look's time, on any monotonic scale
     */
    public static PacingDecision decide(
            List<BrokerSignals> signals, CatchUpPacing config, PacingMemory memory, long nowMs) {
        Objects.requireNonNull(signals, "signals");
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(memory, "memory");
        Map<Integer, BrokerSignals> byBroker = new TreeMap<>();
        for (BrokerSignals s : signals) {
            if (byBroker.put(s.broker(), s) != null) {
                throw new IllegalArgumentException("broker " + s.broker() + " is observed twice");
            }
        }

        List<BrokerPacing> out = new ArrayList<>();
        Map<Integer, PacingEpisode> next = new TreeMap<>();
        if (config.enabled()) {
            for (BrokerSignals s : byBroker.values()) {
                if (s.state() == CatchUpState.IN_SYNC) {
                    continue;
                }
                PacingEpisode ep = memory.episode(s.broker());
                if (ep == null) {
                    ep = PacingEpisode.start(nowMs, config.startRateBytes());
                }
                Step step = step(s, ep, config, nowMs);
                next.put(s.broker(), step.episode());
                out.add(step.decision());
            }
        }
        checkRates(out, config);
        return new PacingDecision(nowMs, out, new PacingMemory(next));
    }

    /**
     * A paced broker's rate is within the min and max rates: the rate is what the agent writes into Kafka's
     * replication throttle, so one outside them (a cut below the floor, a raise past the ceiling) must fail the look
     * rather than reach the cluster. Checked on every look (a pass over the brokers paced).
     */
    static void checkRates(List<BrokerPacing> decisions, CatchUpPacing config) {
        for (BrokerPacing d : decisions) {
            if (d.phase() == PacingPhase.PACED && d.rateBytes().isPresent()) {
                long rate = d.rateBytes().getAsLong();
                if (rate < config.minRateBytes() || rate > config.ceilingBytes()) {
                    throw new IllegalStateException("broker " + d.broker() + " paced at " + rate
                            + " B/s, outside the min rate " + config.minRateBytes() + " and the max "
                            + config.ceilingBytes());
                }
            }
        }
    }

    private record Step(PacingEpisode episode, BrokerPacing decision) {}

    private static Step step(BrokerSignals s, PacingEpisode ep, CatchUpPacing config, long nowMs) {
        long maxWait = config.timing().maxWaitMs();
        boolean up = s.state() != CatchUpState.INACTIVE;
        if (nowMs < s.caughtUpUntilMs()) {
            return graced(s, ep, config, nowMs, up);
        }
        if (up) {
            ep = ep.withClock(ep.clock().up(nowMs));
        }
        if (!ep.escaped() && maxWait > 0 && ep.clock().pacedMs() >= maxWait) {
            ep = ep.escape();
        }
        if (ep.escaped()) {
            if (!up) {
                ep = ep.forgetLooks(nowMs);
            }
            String why = maxWait > 0 && ep.clock().pacedMs() >= maxWait
                    ? String.format(Locale.ROOT, "paced for %d s while up, the max-wait", maxWait / 1000)
                    : "catch-up stalled at the max rate";
            return escaped(s, ep, why + ": unthrottled until it is back in every ISR");
        }
        long held = withinBounds(ep, config);
        if (held != ep.rateBytes()) {
            // The min or max rate changed under it (or a predecessor's rate is out of today's bounds).
            ep = ep.clampedTo(held);
        }
        if (!up) {
            return whileDown(s, ep, nowMs, maxWait);
        }
        if (s.bytesBehind().isEmpty()) {
            return paced(s, ep, "bytes behind unknown: holding " + RateText.of(ep.rateBytes()));
        }
        long bytes = s.bytesBehind().getAsLong();
        long sinceLast = ep.last().mark().present() ? nowMs - ep.last().mark().atMs() : 0;
        StallDetector.Verdict verdict = StallDetector.look(s, ep.observe(bytes, nowMs), sinceLast, config, nowMs);
        ep = verdict.episode();
        if (verdict.stall().isPresent()) {
            StallDetector.Stall stall = verdict.stall().get();
            return stall.raisedBytes().isPresent()
                    ? raise(s, ep, config, nowMs, stall.raisedBytes().getAsLong(), stall.what())
                    : escaped(s, ep.escape(), stall.what());
        }
        Optional<DeadlineRate> deadline = DeadlineRate.of(s, ep, config, nowMs);
        if (deadline.isPresent() && deadline.get().unreachable()) {
            return escaped(
                    s,
                    ep.escape(),
                    deadline.get().text() + ": more than the max rate " + RateText.of(config.ceilingBytes())
                            + ", unthrottled until it is back in every ISR");
        }
        long floor = deadline.map(DeadlineRate::bytesPerSecond).orElse(0L);
        if (ep.rateBytes() < floor) {
            ep = ep.withRate(floor, nowMs, false);
        }
        String because = deadline.map(d -> "; " + d.text()).orElse("");
        if (config.mode() == PacingMode.STATIC) {
            return paced(
                    s,
                    ep,
                    "static " + RateText.of(ep.rateBytes())
                            + config.rateHeldNote().map(n -> " (" + n + ")").orElse("")
                            + because);
        }
        Step adapted = adapt(s, ep, config, nowMs, floor);
        return because.isEmpty()
                ? adapted
                : withReason(adapted, adapted.decision().reason() + because);
    }

    /**
     * Back (or down) within {@code replica.lag.time.max.ms} of going down: its leaders still count it caught up, so a
     * throttle on a partition with writes would hold their {@code acks=all} writes; the time does not count towards the
     * max-wait. Its rate applies to the replicas of partitions with no writes only (the plan lists no other): they hold
     * no one's writes, and unthrottled they would take the fetches the written partitions need to reach their high
     * watermark, on a broker that every such write waits for (evidence run 22, "Back within 30 s"). Set while it is
     * down too, so that it is in force at its first fetch: evidence run 24 measured every write waiting from its
     * unfencing until the look that set it, 5 s later. Never slower than a deadline needs.
     */
    private static Step graced(BrokerSignals s, PacingEpisode ep, CatchUpPacing config, long nowMs, boolean up) {
        long left = (s.caughtUpUntilMs() - nowMs + 999) / 1000;
        // Not paced: its time does not count towards the max-wait, and what it fetches says nothing of a rate.
        PacingEpisode next = ep.graced(nowMs, up);
        // A deadline is a floor here too (evidence run 27: the grace held the partitions without writes at the start
        // rate for 7 s of a 24 s deadline, which then had no time left); one out of reach asks for the max rate.
        Optional<DeadlineRate> deadline = DeadlineRate.of(s, next, config, nowMs);
        long floor = deadline.map(d ->
                        d.unreachable() ? config.ceilingBytes() : Math.min(d.bytesPerSecond(), config.ceilingBytes()))
                .orElse(0L);
        long rate = Math.max(withinBounds(ep, config), floor);
        String because = deadline.map(d -> "; " + d.text()).orElse("");
        String reason = up
                ? String.format(
                        Locale.ROOT,
                        "back within replica.lag.time.max.ms of going down: its leaders still count it caught up and"
                                + " hold acks=all writes for each of its fetches; partitions with writes unthrottled"
                                + " for %d s more, those with none throttled at %s",
                        left,
                        RateText.of(rate))
                : String.format(
                        Locale.ROOT,
                        "down within replica.lag.time.max.ms of going down: its leaders still count it caught up and"
                                + " would hold acks=all writes for each throttled fetch; partitions with writes"
                                + " unthrottled for %d s more, those with none throttled at %s, in place for its"
                                + " return",
                        left,
                        RateText.of(rate));
        return new Step(
                next,
                new BrokerPacing(
                        s.broker(),
                        PacingPhase.CAUGHT_UP_GRACE,
                        OptionalLong.of(rate),
                        reason + because,
                        progress(ep, s, false)));
    }

    /**
     * Down: the throttle stays in place for its return, except that after the max-wait no cluster-default rate is
     * kept (it throttles every broker's listed replicas).
     */
    private static Step whileDown(BrokerSignals s, PacingEpisode ep, long nowMs, long maxWait) {
        ep = ep.forgetLooks(nowMs);
        if (maxWait > 0 && ep.clock().downMs(nowMs) >= maxWait) {
            // Its rate, while it is down, is the cluster default, which throttles every broker's listed replicas:
            // not for longer than the max-wait.
            return new Step(
                    ep,
                    new BrokerPacing(
                            s.broker(),
                            PacingPhase.PACED,
                            OptionalLong.empty(),
                            String.format(
                                    Locale.ROOT,
                                    "down for %d s, the max-wait: no cluster-default rate while it is"
                                            + " down; paced again at %s once it is up",
                                    maxWait / 1000,
                                    RateText.of(ep.rateBytes())),
                            BrokerPacing.Progress.UNKNOWN));
        }
        return paced(s, ep, "down: throttle at " + RateText.of(ep.rateBytes()) + " in place for its return");
    }

    /** The episode's rate within today's min and max rates (they may have changed under it). */
    private static long withinBounds(PacingEpisode ep, CatchUpPacing config) {
        return Math.min(config.ceilingBytes(), Math.max(config.minRateBytes(), ep.rateBytes()));
    }

    private static Step withReason(Step step, String reason) {
        BrokerPacing b = step.decision();
        return new Step(step.episode(), new BrokerPacing(b.broker(), b.phase(), b.rateBytes(), reason, b.progress()));
    }

    /** A stall: the raised rate, or the escape when the rate is already at the max. */
    private static Step raise(
            BrokerSignals s, PacingEpisode ep, CatchUpPacing config, long nowMs, long raised, String what) {
        if (raised <= ep.rateBytes()) {
            return escaped(
                    s,
                    ep.escape(),
                    what + ", already at the max rate " + RateText.of(config.ceilingBytes())
                            + ": unthrottled until it is back in every ISR");
        }
        ep = ep.withRate(raised, nowMs, false).withFloor(Math.max(ep.changes().floorBytes(), raised));
        return paced(s, ep, what + ": raised to " + RateText.of(raised));
    }

    private static Step escaped(BrokerSignals s, PacingEpisode ep, String reason) {
        return new Step(
                ep,
                new BrokerPacing(
                        s.broker(), PacingPhase.ESCAPED, OptionalLong.empty(), reason, progress(ep, s, false)));
    }

    /**
     * The adaptive mode's look.
     *
     * @param deadlineFloor the least rate the deadline needs: a cut never goes under it (0 without a deadline)
     */
    private static Step adapt(BrokerSignals s, PacingEpisode ep, CatchUpPacing config, long nowMs, long deadlineFloor) {
        if (s.canaryRatio().isEmpty()) {
            return paced(s, ep, "no canary sample yet: holding " + RateText.of(ep.rateBytes()));
        }
        double ratio = s.canaryRatio().getAsDouble();
        double target = config.targetRatio();
        // A change is judged on a signal that has seen it: the canary's next full window after the quota moved. Only a
        // signal far over the target cuts a rate raised moments ago (never one cut moments ago).
        long settle = Math.max(config.timing().intervalMs(), SIGNAL_SETTLE_MS);
        boolean settled = ep.changes().changedAtMs() == Long.MIN_VALUE
                || nowMs - ep.changes().changedAtMs() >= settle;
        boolean cutSettled =
                ep.changes().cutAtMs() == Long.MIN_VALUE || nowMs - ep.changes().cutAtMs() >= settle;
        boolean farOver = ratio > target * 2;
        if (!cutSettled || !(settled || (farOver && ratio > target))) {
            return paced(
                    s,
                    ep,
                    String.format(
                            Locale.ROOT,
                            "canary P99 %.1fx steady: holding %s while the last change" + " shows in it",
                            ratio,
                            RateText.of(ep.rateBytes())));
        }
        if (ratio > target) {
            return overTarget(s, ep, config, nowMs, deadlineFloor, ratio);
        }
        if (ep.rateBytes() >= config.ceilingBytes()) {
            return paced(
                    s,
                    ep,
                    String.format(
                            Locale.ROOT,
                            "canary P99 %.1fx steady, within %.1fx: holding the max" + " rate %s",
                            ratio,
                            target,
                            RateText.of(ep.rateBytes())));
        }
        // Far under the target: a quarter more; near it, one step; both at least one step and at most the max rate.
        boolean far = ratio * 100 <= target * FAR_UNDER_TARGET_PERCENT;
        long up = Math.min(
                config.ceilingBytes(),
                Math.max(ep.rateBytes() + config.minRateBytes(), far ? ep.rateBytes() * RAISE_PERCENT / 100 : 0));
        ep = ep.withRate(up, nowMs, false);
        return paced(
                s,
                ep,
                String.format(
                        Locale.ROOT,
                        "canary P99 %.1fx steady, within %.1fx: raised to %s",
                        ratio,
                        target,
                        RateText.of(up)));
    }

    /**
     * The adaptive look when the canary is over the target: the rate cut to {@value #CUT_PERCENT} % of itself, never
     * under the least rate it may have (the min rate, the rate under which catch-up would not keep up, the deadline's):
     * held where a cut would go under it.
     */
    private static Step overTarget(
            BrokerSignals s, PacingEpisode ep, CatchUpPacing config, long nowMs, long deadlineFloor, double ratio) {
        double target = config.targetRatio();
        long floor = Math.max(Math.max(config.minRateBytes(), ep.changes().floorBytes()), deadlineFloor);
        long cut = Math.max(floor, ep.rateBytes() * CUT_PERCENT / 100);
        if (cut >= ep.rateBytes()) {
            String which = deadlineFloor > 0 && deadlineFloor >= floor
                    ? "the deadline needs it"
                    : ep.changes().floorBytes() > config.minRateBytes()
                            ? "under it catch-up would not keep up with its inflow"
                            : "the min rate";
            return paced(
                    s,
                    ep,
                    String.format(
                            Locale.ROOT,
                            "canary P99 %.1fx steady, over %.1fx: holding %s, %s",
                            ratio,
                            target,
                            RateText.of(ep.rateBytes()),
                            which));
        }
        ep = ep.withRate(cut, nowMs, true);
        return paced(
                s,
                ep,
                String.format(
                        Locale.ROOT,
                        "canary P99 %.1fx steady, over %.1fx: rate cut to %s",
                        ratio,
                        target,
                        RateText.of(cut)));
    }

    private static Step paced(BrokerSignals s, PacingEpisode ep, String reason) {
        String why = s.foreignRateBytes().isPresent()
                ? "someone else's follower rate "
                        + RateText.of(s.foreignRateBytes().getAsLong())
                        + " is in force on its catch-up (pacing uses it and does not change it); pacing's: " + reason
                : reason;
        return new Step(
                ep,
                new BrokerPacing(
                        s.broker(), PacingPhase.PACED, OptionalLong.of(ep.rateBytes()), why, progress(ep, s, true)));
    }

    private static BrokerPacing.Progress progress(PacingEpisode ep, BrokerSignals s, boolean paced) {
        if (s.bytesBehind().isEmpty()) {
            return BrokerPacing.Progress.UNKNOWN;
        }
        OptionalDouble r = ep.last().bytesPerSecond();
        long peak = ep.last().peakBytes();
        return new BrokerPacing.Progress(
                s.bytesBehind(),
                peak < 0 ? OptionalLong.empty() : OptionalLong.of(peak),
                r,
                ep.etaMs(paced),
                s.flow().fetchBytesPerSecond());
    }

    /** e.g. "24.0 MiB/s". */
    static String bytesText(long bytes) {
        return String.format(Locale.ROOT, "%.0f MiB", bytes / 1048576.0);
    }
}
