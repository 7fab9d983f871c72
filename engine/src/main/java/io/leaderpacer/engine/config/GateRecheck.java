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

    public GateRecheck {
        require(intervalMs >= 0, ConfigKey.RECHECK_INTERVAL_MS, Long.toString(intervalMs));
        require(hysteresisMinMs >= 0, ConfigKey.HYSTERESIS_MIN_MS, Long.toString(hysteresisMinMs));
    }

    /** Whether gated brokers are re-checked sooner than the check interval. */
    public boolean enabled() {
        return intervalMs > 0;
    }
}
