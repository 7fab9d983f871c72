package io.leaderpacer.engine.pacing;

import io.leaderpacer.engine.config.CatchUpPacing;
import io.leaderpacer.engine.config.PacingMode;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
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
 *   <li>Static: the configured rate. Adaptive: from the configured rate, one step (the min rate) up per interval
 *       while the canary's P99 is within the target ratio of its steady P99, halved at once when it is not (at most
 *       once per {@value #CUT_COOLDOWN_INTERVALS} intervals, the time a cut takes to show), bounded by the min and
 *       max rates; without a canary sample it holds.</li>
 *   <li>The progress guard, in both modes: when bytes behind fell by less than {@value #MIN_FALL_PERCENT} % over
 *       {@value #GUARD_INTERVALS} intervals, the rate is raised by half (at least one step, at most the max rate),
 *       whatever the canary says, and no later cut of the episode goes below that raised rate. Kafka counts the bytes
 *       of in-sync replicas of throttled partitions too, so a rate under the broker's in-sync inflow stalls catch-up:
 *       pacing may slow it, never stall it.</li>
 *   <li>After the max-wait the broker escapes: unthrottled until it is back in every ISR (a new episode can then
 *       open).</li>
 * </ul>
 * What it optimises: the fastest catch-up that keeps the producers of the broker's in-sync partitions within the
 * target ratio of their steady P99, as the canary measures them; it does not see other producers directly.
 */
public final class CatchUpPacer {

    /** Intervals over which bytes behind must fall. */
    static final int GUARD_INTERVALS = 5;
    /** Percent by which bytes behind must fall over the guard's window. */
    static final int MIN_FALL_PERCENT = 1;
    /** Intervals between two cuts: a cut shows in the canary only after Kafka's quota window moves on. */
    static final int CUT_COOLDOWN_INTERVALS = 3;

    private CatchUpPacer() {
    }

    /**
     * Decides one look.
     *
     * @param signals what was observed, one entry per broker at most; a broker with an open episode and no entry is
     *                taken as inactive
     * @param config  the settings in force
     * @param memory  the previous decision's {@link PacingDecision#nextMemory()}, or {@link PacingMemory#empty()}
     * @param nowMs   the look's time, on any monotonic scale
     */
    public static PacingDecision decide(List<BrokerSignals> signals, CatchUpPacing config, PacingMemory memory,
                                        long nowMs) {
        Objects.requireNonNull(signals, "signals");
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(memory, "memory");
        Map<Integer, BrokerSignals> byBroker = new TreeMap<>();
        for (BrokerSignals s : signals) {
            if (byBroker.put(s.broker(), s) != null) {
                throw new IllegalArgumentException("broker " + s.broker() + " is observed twice");
            }
        }
        for (int b : memory.brokers()) {
            byBroker.putIfAbsent(b, BrokerSignals.inactive(b));
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
        return new PacingDecision(nowMs, out, new PacingMemory(next));
    }

    private record Step(PacingEpisode episode, BrokerPacing decision) {
    }

    private static Step step(BrokerSignals s, PacingEpisode ep, CatchUpPacing config, long nowMs) {
        long maxWait = config.timing().maxWaitMs();
        if (!ep.escaped() && maxWait > 0 && nowMs - ep.startMs() >= maxWait) {
            ep = ep.escape();
        }
        if (ep.escaped()) {
            return new Step(ep, new BrokerPacing(s.broker(), PacingPhase.ESCAPED, OptionalLong.empty(),
                    String.format(Locale.ROOT, "paced for %d s, the max-wait: unthrottled until it is back in every ISR",
                            maxWait / 1000), progress(ep, s)));
        }
        if (s.state() == CatchUpState.INACTIVE || s.bytesBehind().isEmpty()) {
            ep = ep.forgetLooks();
            String why = s.state() == CatchUpState.INACTIVE ? "down: throttle at " + rate(ep.rateBytes())
                    + " in place for its return" : "bytes behind unknown: holding " + rate(ep.rateBytes());
            return paced(s, ep, why);
        }
        long bytes = s.bytesBehind().getAsLong();
        ep = ep.observe(bytes, nowMs);
        long interval = config.timing().intervalMs();
        PacingEpisode.Mark mark = ep.guard();
        if (!mark.present()) {
            ep = ep.withGuard(new PacingEpisode.Mark(bytes, nowMs));
        } else if (nowMs - mark.atMs() >= GUARD_INTERVALS * interval) {
            ep = ep.withGuard(new PacingEpisode.Mark(bytes, nowMs));
            if (bytes > 0 && bytes * 100 > mark.bytes() * (100 - MIN_FALL_PERCENT)) {
                long raised = Math.min(config.ceilingBytes(),
                        Math.max(ep.rateBytes() + config.minRateBytes(), ep.rateBytes() * 3 / 2));
                if (raised > ep.rateBytes()) {
                    ep = ep.raisedByGuard(raised, nowMs);
                    return paced(s, ep, String.format(Locale.ROOT, "bytes behind did not fall in %d s (%s to %s):"
                                    + " raised to %s", (nowMs - mark.atMs()) / 1000, bytesText(mark.bytes()),
                            bytesText(bytes), rate(raised)));
                }
                return paced(s, ep, "bytes behind did not fall, already at the max rate " + rate(ep.rateBytes()));
            }
        }
        if (config.mode() == PacingMode.STATIC) {
            return paced(s, ep, "static " + rate(ep.rateBytes()));
        }
        return adapt(s, ep, config, nowMs);
    }

    private static Step adapt(BrokerSignals s, PacingEpisode ep, CatchUpPacing config, long nowMs) {
        if (s.canaryRatio().isEmpty()) {
            return paced(s, ep, "no canary sample yet: holding " + rate(ep.rateBytes()));
        }
        double ratio = s.canaryRatio().getAsDouble();
        long interval = config.timing().intervalMs();
        if (ratio > config.targetRatio()) {
            if (ep.changes().cutAtMs() != Long.MIN_VALUE && nowMs - ep.changes().cutAtMs() < CUT_COOLDOWN_INTERVALS * interval) {
                return paced(s, ep, String.format(Locale.ROOT, "canary P99 %.1fx steady, over %.1fx: holding %s"
                        + " while the last cut takes effect", ratio, config.targetRatio(), rate(ep.rateBytes())));
            }
            long cut = Math.max(Math.max(config.minRateBytes(), ep.changes().floorBytes()), ep.rateBytes() / 2);
            if (cut >= ep.rateBytes()) {
                return paced(s, ep, String.format(Locale.ROOT, "canary P99 %.1fx steady, over %.1fx: holding %s, the"
                        + " least rate under which catch-up progressed", ratio, config.targetRatio(), rate(ep.rateBytes())));
            }
            ep = ep.withRate(cut, nowMs, true);
            return paced(s, ep, String.format(Locale.ROOT, "canary P99 %.1fx steady, over %.1fx: rate cut to %s", ratio,
                    config.targetRatio(), rate(cut)));
        }
        if (nowMs - ep.changes().changedAtMs() >= interval && ep.rateBytes() < config.ceilingBytes()) {
            long up = Math.min(config.ceilingBytes(), ep.rateBytes() + config.minRateBytes());
            ep = ep.withRate(up, nowMs, false);
            return paced(s, ep, String.format(Locale.ROOT, "canary P99 %.1fx steady, within %.1fx: raised to %s", ratio,
                    config.targetRatio(), rate(up)));
        }
        return paced(s, ep, String.format(Locale.ROOT, "canary P99 %.1fx steady, within %.1fx: holding %s", ratio,
                config.targetRatio(), rate(ep.rateBytes())));
    }

    private static Step paced(BrokerSignals s, PacingEpisode ep, String reason) {
        return new Step(ep, new BrokerPacing(s.broker(), PacingPhase.PACED, OptionalLong.of(ep.rateBytes()), reason,
                progress(ep, s)));
    }

    private static BrokerPacing.Progress progress(PacingEpisode ep, BrokerSignals s) {
        if (s.bytesBehind().isEmpty()) {
            return BrokerPacing.Progress.UNKNOWN;
        }
        OptionalDouble r = ep.last().bytesPerSecond();
        long peak = ep.last().peakBytes();
        return new BrokerPacing.Progress(s.bytesBehind(), peak < 0 ? OptionalLong.empty() : OptionalLong.of(peak), r,
                ep.etaMs());
    }

    /** e.g. "24.0 MiB/s". */
    static String rate(long bytesPerSecond) {
        return String.format(Locale.ROOT, "%.1f MiB/s", bytesPerSecond / 1048576.0);
    }

    private static String bytesText(long bytes) {
        return String.format(Locale.ROOT, "%.0f MiB", bytes / 1048576.0);
    }
}
