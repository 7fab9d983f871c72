package io.leaderpacer.engine.config;

import static io.leaderpacer.engine.config.KeyCheck.require;

/**
 * How soon a gated broker is looked at again, and how long its clear streak must last.
 *
 * <p>Why it exists: under KIP-1358's schedule a gated broker is only re-evaluated on the periodic run (Kafka's
 * default 300 s), and released after two consecutive clear runs, so release comes up to two check intervals
 * after the broker crossed the threshold: minutes in which it could already lead. Re-checking more often while a
 * broker is gated makes release follow the crossing within {@link #intervalMs()}; the time floor keeps the
 * hysteresis from shrinking with the interval (two runs 5 s apart would otherwise be all the flap protection
 * left). Both are off by default, which is KIP-1358's behaviour exactly.
 *
 * @param intervalMs      while a broker is gated, the delay before the next run when it is shorter than the check
 *                        interval; 0 = off
 * @param hysteresisMinMs the least time from the first to the releasing clear run of a streak; 0 = the run count
 *                        alone
 */
public record GateRecheck(long intervalMs, long hysteresisMinMs) {

    /** KIP-1358's schedule and hysteresis. */
    public static final GateRecheck OFF = new GateRecheck(0, 0);

    /** KIP-1358's hysteresis: consecutive clear runs before a gated broker is released; not configurable in v1. */
    public static final int CLEAR_RUNS_TO_RELEASE = 2;

    public GateRecheck {
        require(intervalMs >= 0, ConfigKey.RECHECK_INTERVAL_MS, Long.toString(intervalMs));
        require(hysteresisMinMs >= 0, ConfigKey.HYSTERESIS_MIN_MS, Long.toString(hysteresisMinMs));
    }

    /**
     * The longest a broker back under the threshold waits for its release under the re-check: the first clear run up to
     * one interval after it crossed, the releasing one {@value #CLEAR_RUNS_TO_RELEASE} runs later or once the
     * hysteresis floor has passed since the first, whichever is later. Evidence runs 26 and 27 measured 6.6-8.6 s from
     * the last re-entry to the release under a 5 s re-check. 0 without a re-check (the periodic run then decides).
     */
    public long releaseMs() {
        return enabled() ? intervalMs + Math.max((CLEAR_RUNS_TO_RELEASE - 1) * intervalMs, hysteresisMinMs) : 0;
    }

    /** Whether gated brokers are re-checked sooner than the check interval. */
    public boolean enabled() {
        return intervalMs > 0;
    }
}
