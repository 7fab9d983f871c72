package io.leaderpacer.simulator.run;

import io.leaderpacer.simulator.scenario.PolicySpec;

import java.util.Map;

/**
 * What one policy did on one scenario: KIP-1358's three figures, the controller's activity, how the simulation
 * ended and the figures and time series behind the charts.
 *
 * @param policy     the policy
 * @param seed       the seed the simulation used
 * @param kip        KIP-1358's figures: P99 steady and over the window, time-outs, recovery time
 * @param controller what the controller did
 * @param end        the leaders at the end and the invariant checks made
 * @param series     metrics per time bucket
 * @param classes    P99 per class and per broker, gate release, ISR re-entry timeline
 */
public record PolicyOutcome(
        PolicySpec policy,
        long seed,
        KipFigures kip,
        ControllerActivity controller,
        End end,
        TimeSeries series,
        ClassFigures classes) {

    /**
     * The figures KIP-1358's criteria read.
     *
     * @param steadyP99Ms    P99 produce latency before the first event
     * @param windowP99Ms    P99 over the recovery window (from the first unfencing)
     * @param timeouts       requests slower than request.timeout.ms from the first unfencing to the end (expected
     *                       count)
     * @param firstUnfenceMs when the first restarted broker was unfenced, or -1
     * @param recoveryMs     from that unfencing until every restarted broker led its share of its preferred
     *                       partitions, or -1 if that never happened
     */
    public record KipFigures(
            double steadyP99Ms, double windowP99Ms, double timeouts, long firstUnfenceMs, long recoveryMs) {

        /** Window P99 over steady-state P99: KIP-1358's first criterion wants at most 1.5. */
        public double p99Ratio() {
            return windowP99Ms / steadyP99Ms;
        }

        public boolean recovered() {
            return recoveryMs >= 0;
        }

        /** Time-outs as the whole number of requests reported. */
        public long timeoutCount() {
            return Math.round(timeouts);
        }
    }

    /**
     * The controller's activity over the simulation.
     *
     * @param runs                runs of the periodic task
     * @param elections           preferred-leader elections
     * @param maxElectionsInRun   most elections one run made
     * @param skippedByGate       elections held back by the gate, summed over runs
     * @param failoverElections   leader changes on fencing / shutdown / unfencing
     * @param controllerFailovers controller failovers
     */
    public record ControllerActivity(
            long runs,
            long elections,
            int maxElectionsInRun,
            long skippedByGate,
            long failoverElections,
            int controllerFailovers) {}

    /**
     * How the simulation ended.
     *
     * @param finalLeaders    leaders per watched broker at the end
     * @param invariantChecks invariant checks made (all passed, or the simulation would have failed)
     */
    public record End(Map<Integer, Integer> finalLeaders, long invariantChecks) {
        public End {
            finalLeaders = Map.copyOf(finalLeaders);
        }
    }

    /** Recovery time over the physical limit (the last preferred ISR re-entry); NaN when either is unknown. */
    public double recoveryVsPhysicalLimit() {
        double limit = classes.reentries().lastSeconds();
        return kip.recoveryMs() < 0 || !(limit > 0) ? Double.NaN : kip.recoveryMs() / 1000.0 / limit;
    }
}
