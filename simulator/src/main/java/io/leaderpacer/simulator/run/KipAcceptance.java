package io.leaderpacer.simulator.run;

/**
 * A policy's result against KIP-1358's three acceptance criteria:
 *
 * <ol>
 *   <li>produce P99 over the 10 minutes from unfencing within 1.5x the steady-state P99;</li>
 *   <li>no produce request times out (request.timeout.ms = 30000);</li>
 *   <li>total recovery time at most 2x the baseline's.</li>
 * </ol>
 *
 * @param p99Ratio      window P99 / steady P99
 * @param recoveryRatio recovery time / baseline recovery time; NaN when either never recovered
 * @param p99Ok         criterion 1
 * @param timeoutsOk    criterion 2
 * @param recoveryOk    criterion 3
 */
public record KipAcceptance(
        double p99Ratio, double recoveryRatio, boolean p99Ok, boolean timeoutsOk, boolean recoveryOk) {

    /** KIP-1358's limit for criterion 1. */
    public static final double MAX_P99_RATIO = 1.5;
    /** KIP-1358's limit for criterion 3. */
    public static final double MAX_RECOVERY_RATIO = 2.0;

    /** Judges an outcome against the baseline's recovery time. */
    public static KipAcceptance of(PolicyOutcome outcome, PolicyOutcome baseline) {
        PolicyOutcome.KipFigures mine = outcome.kip();
        PolicyOutcome.KipFigures base = baseline.kip();
        double p99Ratio = mine.p99Ratio();
        double recoveryRatio = mine.recovered() && base.recovered() && base.recoveryMs() > 0
                ? (double) mine.recoveryMs() / base.recoveryMs()
                : Double.NaN;
        boolean recoveryOk =
                mine.recovered() && (!base.recovered() || mine.recoveryMs() <= MAX_RECOVERY_RATIO * base.recoveryMs());
        return new KipAcceptance(
                p99Ratio, recoveryRatio, p99Ratio <= MAX_P99_RATIO, mine.timeoutCount() == 0, recoveryOk);
    }

    public boolean pass() {
        return p99Ok && timeoutsOk && recoveryOk;
    }
}
