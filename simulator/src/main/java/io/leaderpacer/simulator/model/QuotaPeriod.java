package io.leaderpacer.simulator.model;

import io.leaderpacer.simulator.scenario.ModelKey;
import io.leaderpacer.simulator.scenario.ModelParameters;

/**
 * How the CFS period of a CPU quota shapes the wait behind one catch-up response on the restarted broker.
 *
 * <p>The model's capacity is a rate per tick: under a quota of q cores a response that takes {@code T} ms at the
 * quota's rate takes {@code T} ms for every write caught behind it. The kernel does it otherwise (Linux CFS bandwidth
 * control, {@code cpu.cfs_quota_us} over {@code cpu.cfs_period_us}): the fetcher thread appends at one core's speed,
 * {@code r = T x min(1, q)} ms of CPU, until the group has spent its {@code q x P} ms of the period, and then every
 * thread of the broker stands until the period ends. A response that starts at a uniformly random point of the
 * period's budget meets {@code r / (q x P)} period ends on average, each a stop of {@code P x (1 - q)}: so a share
 * {@code min(1, r / (q x P))} of the responses is stopped, and the stop that share waits keeps the mean at {@code T}
 * (for {@code r < q x P} exactly {@code P x (1 - q)}: 50 ms at half a core over 100-ms periods, 25 ms at three
 * quarters). The mean is the model's as before; what changes is the tail, which is what a P99 reads.
 *
 * <p>Measured (docs/evidence/run38-quota-throttling): a half-core restarted broker had 11 % of its catch-up's 100-ms
 * periods throttled at an average of 0.15 core, and the canary's loud looks followed them. At a quota of a core or
 * more one fetcher thread cannot spend it and nothing is stopped; with {@code cpuPeriodMs} 0 there is no period.
 *
 * @param cores    the restarted broker's quota once back (restartedBrokerCores), NaN when the model names none
 * @param periodMs the quota's CFS period ({@code cpuPeriodMs}), 0 for none
 */
record QuotaPeriod(double cores, double periodMs) {

    /** No quota: a broker that was not restarted, or a model without a period. */
    static final QuotaPeriod NONE = new QuotaPeriod(Double.NaN, 0);

    static QuotaPeriod of(ModelParameters model) {
        return new QuotaPeriod(BrokerLoad.restartedCores(model), model.get(ModelKey.CPU_PERIOD_MS));
    }

    /** Whether a response on a broker under this quota can be stopped at a period's end. */
    boolean stops() {
        return periodMs > 0 && cores > 0 && cores < 1;
    }

    /** The CPU (ms at one core's speed) of a response the quota's rate takes {@code responseMs} for. */
    double runMs(double responseMs) {
        return stops() ? responseMs * cores : responseMs;
    }

    /** The share of such responses that meet at least one period's end, 0 without stops. */
    double stoppedShare(double responseMs) {
        return stops() ? Math.min(1, runMs(responseMs) / (cores * periodMs)) : 0;
    }

    /** What a stopped response adds to its run, on average (ms), so that the mean over all stays {@code responseMs}. */
    double stopMs(double responseMs) {
        double share = stoppedShare(responseMs);
        return share > 0 ? (responseMs - runMs(responseMs)) / share : 0;
    }
}
