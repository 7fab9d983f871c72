package io.leaderpacer.simulator.run;

import io.leaderpacer.simulator.scenario.PolicySpec;

import java.util.Map;

/**
 * What one policy did on one scenario: KIP-1358's three figures, the controller's activity and
 * the time series behind the charts.
 *
 * @param policy              the policy
 * @param seed                the seed the simulation used
 * @param steadyP99Ms         P99 produce latency before the first event
 * @param windowP99Ms         P99 over the recovery window (from the first unfencing)
 * @param timeouts            requests slower than request.timeout.ms from the first unfencing to the end (expected count)
 * @param firstUnfenceMs      when the first restarted broker was unfenced, or -1
 * @param recoveryMs          from that unfencing until every restarted broker led its share of its
 *                            preferred partitions, or -1 if that never happened
 * @param elections           preferred-leader elections over the simulation
 * @param failoverElections   leader changes on fencing / shutdown / unfencing
 * @param runs                runs of the periodic task
 * @param maxElectionsInRun   most elections one run made
 * @param skippedByGate       elections held back by the gate, summed over runs
 * @param controllerFailovers controller failovers during the simulation
 * @param invariantChecks     invariant checks made (all passed, or the simulation would have failed)
 * @param finalLeaders        leaders per watched broker at the end
 * @param series              metrics per time bucket
 * @param classes             P99 per class and per broker, gate release, ISR re-entry timeline
 */
public record PolicyOutcome(
        PolicySpec policy,
        long seed,
        double steadyP99Ms,
        double windowP99Ms,
        double timeouts,
        long firstUnfenceMs,
        long recoveryMs,
        long elections,
        long failoverElections,
        long runs,
        int maxElectionsInRun,
        long skippedByGate,
        int controllerFailovers,
        long invariantChecks,
        Map<Integer, Integer> finalLeaders,
        TimeSeries series,
        ClassFigures classes) {

    public PolicyOutcome {
        finalLeaders = Map.copyOf(finalLeaders);
    }

    /** Window P99 over steady-state P99: KIP-1358's first criterion wants at most 1.5. */
    public double p99Ratio() {
        return windowP99Ms / steadyP99Ms;
    }

    /** Recovery time over the physical limit (the last preferred ISR re-entry); NaN when either is unknown. */
    public double recoveryVsPhysicalLimit() {
        double limit = classes.reentries().lastSeconds();
        return recoveryMs < 0 || !(limit > 0) ? Double.NaN : recoveryMs / 1000.0 / limit;
    }

    public boolean recovered() {
        return recoveryMs >= 0;
    }

    /** Time-outs as the whole number of requests reported. */
    public long timeoutCount() {
        return Math.round(timeouts);
    }
}
