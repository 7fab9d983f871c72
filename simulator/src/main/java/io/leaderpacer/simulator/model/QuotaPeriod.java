package io.leaderpacer.simulator.model;

import io.leaderpacer.simulator.scenario.ModelKey;
import io.leaderpacer.simulator.scenario.ModelParameters;

/**
 * How the CFS period of a CPU quota makes the restarted broker stand still now and then, and what that costs a write.
 *
 * <p>The model's capacity is a rate per tick. The kernel does it otherwise (Linux CFS bandwidth control,
 * {@code cpu.cfs_quota_us} over {@code cpu.cfs_period_us}): the broker's threads run at full speed until the group has
 * spent its {@code q x P} ms of the period, and then every thread stands until the period ends. Work that comes in
 * bursts — a catch-up response of megabytes, appended whole — runs {@code r} ms at one core's speed and meets
 * {@code r / (q x P)} period ends on average, each a stop of {@code P x (1 - q)}: so every core-second of such work
 * stands the broker for {@code 1/q - 1} seconds, whatever the burst's size. A broker spending {@code c} cores on
 * bursts stands a share {@code c x (1/q - 1)} of the time (at most {@code 1 - q}, when the bursts fill its quota),
 * and a write that needs it then waits what is left of the stop: half of {@code P x (1 - q)} on average, 25 ms at half
 * a core over 100-ms periods, 12.5 ms at three quarters, none at a core or more (one thread cannot spend the quota).
 *
 * <p>Measured (docs/evidence/run38-quota-throttling, run39-quota-throttling-second, run42-five-eighths-core): a
 * restarted broker stood 71-98 ms a second of its catch-up at half a core, 52 at 0.625 core (30-60 predicted by this
 * law before the run) and 17-27 at three quarters, and the canary's loud looks followed the periods it stood.
 * Not modelled: the broker's even work (fetch sessions, requests) spends budget too, so a burst can meet the end of a
 * period sooner; only the catch-up bytes count here.
 *
 * @param cores    the restarted broker's quota once back (restartedBrokerCores), NaN when the model names none
 * @param periodMs the quota's CFS period ({@code cpuPeriodMs}), 0 for none
 */
record QuotaPeriod(double cores, double periodMs) {

    static QuotaPeriod of(ModelParameters model) {
        return new QuotaPeriod(BrokerLoad.restartedCores(model), model.get(ModelKey.CPU_PERIOD_MS));
    }

    /** Whether the quota can stop a broker at a period's end: a period, and less than one core. */
    boolean stops() {
        return periodMs > 0 && cores > 0 && cores < 1;
    }

    /** The share of the time a broker spending {@code burstCores} on work in bursts stands at its quota. */
    double standingShare(double burstCores) {
        return stops() ? Math.min(1 - cores, Math.max(0, burstCores) * (1 / cores - 1)) : 0;
    }

    /** What a write that needs the broker while it stands waits, on average (ms): half a stop. */
    double standingWaitMs() {
        return stops() ? periodMs * (1 - cores) / 2 : 0;
    }
}
