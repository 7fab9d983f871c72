package io.leaderpacer.simulator.calibrate;

/**
 * One round of a real load test, as {@code rounds.csv} gives it (times in seconds after the broker's unfencing,
 * latencies in ms; NaN where the run has no value, e.g. no gate release under {@code immediate}).
 *
 * @param run      the run directory it came from
 * @param policy   the load test's policy name, in today's names (a run that recorded {@code wait-for-sync} ran
 *                 {@code kip-example-scaled}: {@code LegacyLoadTestLabels})
 * @param round    the round number
 * @param latency  the P99s, steady and over the window
 * @param timeline how long the broker was down and took to return, and the spans measured from its unfencing
 * @param reentry  when its preferred partitions re-entered the ISR
 * @param cpu      the restarted broker's CPU: its quota and what its catch-up used
 */
public record MeasuredRound(
        String run, String policy, int round, Latency latency, Timeline timeline, Reentry reentry, Cpu cpu) {

    /** The restarted broker's CPU quota (cores) in the round; NaN where it ran uncapped. */
    public double capCores() {
        return cpu.capCores();
    }

    /** The same round under another policy name: a run's {@code name:key=value,...} text matched to a scenario's policy. */
    public MeasuredRound withPolicy(String name) {
        return new MeasuredRound(run, name, round, latency, timeline, reentry, cpu);
    }

    /**
     * Produce latencies (ms).
     *
     * @param steadyP99Ms          P99 of the steady phase, every partition
     * @param steadyP99ProtectedMs the same, the partitions whose preferred leader is the restarted broker
     * @param windowP99Ms          P99 over the window, every partition
     * @param windowP99ProtectedMs the same, the protected partitions
     * @param windowP99OtherMs     the same, every other partition
     * @param roles                the window P99 split by the restarted broker's role in each partition
     */
    public record Latency(
            double steadyP99Ms,
            double steadyP99ProtectedMs,
            double windowP99Ms,
            double windowP99ProtectedMs,
            double windowP99OtherMs,
            Roles roles) {}

    /**
     * The round's spans (s).
     *
     * @param downSeconds        from the stop to the restart
     * @param unfenceSeconds     from the restart to the unfencing
     * @param recoverySeconds    from the unfencing until the broker led its preferred partitions again
     * @param gateReleaseSeconds from the unfencing to the gate's release
     * @param windowSeconds      the measured window
     */
    public record Timeline(
            double downSeconds,
            double unfenceSeconds,
            double recoverySeconds,
            double gateReleaseSeconds,
            double windowSeconds) {}

    /**
     * The ISR re-entry of the broker's preferred partitions (s after the unfencing).
     *
     * @param preferred     how many partitions prefer the broker
     * @param firstSeconds  the first re-entry
     * @param p50Seconds    the median
     * @param p90Seconds    the 90th percentile
     * @param lastSeconds   the last one: the physical limit of recovery
     */
    public record Reentry(
            int preferred, double firstSeconds, double p50Seconds, double p90Seconds, double lastSeconds) {}

    /**
     * Window P99s (ms) of the sends whose partition the restarted broker led, followed in sync, or held out of the
     * ISR; NaN for a run that did not record them.
     */
    public record Roles(double leaderMs, double inSyncFollowerMs, double notInIsrMs) {
        /** A run without the split. */
        public static final Roles NONE = new Roles(Double.NaN, Double.NaN, Double.NaN);
    }

    /**
     * The restarted broker's CPU in the round.
     *
     * @param capCores         its quota (cores); NaN where it ran uncapped
     * @param catchUpBusyCores its average CPU use (cores) from its unfencing to its last ISR re-entry; NaN where the
     *                         run did not record it
     */
    public record Cpu(double capCores, double catchUpBusyCores) {

        /** A round whose run recorded its quota alone. */
        public static Cpu capped(double capCores) {
            return new Cpu(capCores, Double.NaN);
        }
    }
}
