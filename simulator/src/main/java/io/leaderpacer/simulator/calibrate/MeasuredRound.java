package io.leaderpacer.simulator.calibrate;

/**
 * One round of a real load test, as {@code rounds.csv} gives it (times in seconds after the broker's unfencing,
 * latencies in ms; NaN where the run has no value, e.g. no gate release under {@code immediate}).
 *
 * @param run    the run directory it came from
 * @param policy the load test's policy name, in today's names (a run that recorded {@code wait-for-sync} ran
 *               {@code kip-example-scaled}: {@code LegacyPolicyNames})
 * @param round  the round number
 * @param roles  the window P99 split by the restarted broker's role in each partition
 */
public record MeasuredRound(String run, String policy, int round, double steadyP99Ms, double steadyP99ProtectedMs,
                            double windowP99Ms, double windowP99ProtectedMs, double windowP99OtherMs,
                            double downSeconds, double unfenceSeconds, double recoverySeconds,
                            double gateReleaseSeconds, double reentryFirstSeconds, double reentryP50Seconds,
                            double reentryP90Seconds, double reentryLastSeconds, int preferred, double windowSeconds,
                            Roles roles) {

    /** The same round under another policy name: a run's {@code name:key=value,...} text matched to a scenario's policy. */
    public MeasuredRound withPolicy(String name) {
        return new MeasuredRound(run, name, round, steadyP99Ms, steadyP99ProtectedMs, windowP99Ms, windowP99ProtectedMs,
                windowP99OtherMs, downSeconds, unfenceSeconds, recoverySeconds, gateReleaseSeconds, reentryFirstSeconds,
                reentryP50Seconds, reentryP90Seconds, reentryLastSeconds, preferred, windowSeconds, roles);
    }

    /**
     * Window P99s (ms) of the sends whose partition the restarted broker led, followed in sync, or held out of the
     * ISR; NaN for a run that did not record them.
     */
    public record Roles(double leaderMs, double inSyncFollowerMs, double notInIsrMs) {
        /** A run without the split. */
        public static final Roles NONE = new Roles(Double.NaN, Double.NaN, Double.NaN);
    }
}
