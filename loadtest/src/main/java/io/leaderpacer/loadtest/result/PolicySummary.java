package io.leaderpacer.loadtest.result;

import io.leaderpacer.loadtest.load.View;

import java.util.List;
import java.util.OptionalDouble;

/**
 * One policy's rounds, summarised: medians with their spread, and KIP-1358's three acceptance criteria.
 *
 * <p>The criteria, from KIP-1358's system test: produce P99 over the window after unfencing within
 * {@value #MAX_P99_RATIO}× the steady P99 (all sends, KIP-1358's measure; the steady P99 is the run's pooled
 * {@link SteadyReference}); no send timed out; recovery within
 * {@value #MAX_RECOVERY_RATIO}× the baseline's ({@code immediate}'s median). The P99 criterion is judged on the median
 * round; "no time-outs" on every round.
 *
 * @param policy   the policy's name
 * @param rounds   its rounds, in run order
 * @param baselineRecoveryMedianMs the baseline policy's median recovery time ({@code NaN} when it did not run or
 *                                 never recovered)
 * @param reference the run's steady reference, pooled over every round of every policy
 * @param kip       KIP-1358's reference: every steady-phase send of the run, pooled
 */
public record PolicySummary(
        String policy,
        List<RoundResult> rounds,
        double baselineRecoveryMedianMs,
        SteadyReference reference,
        KipReference kip) {

    public static final double MAX_P99_RATIO = 1.5;
    public static final double MAX_RECOVERY_RATIO = 2.0;

    public PolicySummary {
        rounds = List.copyOf(rounds);
    }

    /** Without KIP-1358's reference (no steady sends kept). */
    public PolicySummary(
            String policy, List<RoundResult> rounds, double baselineRecoveryMedianMs, SteadyReference reference) {
        this(policy, rounds, baselineRecoveryMedianMs, reference, new KipReference(Double.NaN, 0));
    }

    /**
     * KIP-1358's P99 criterion as KIP-1358 measures it: each round's P99 over the ten minutes from unfencing (all
     * sends) over {@link KipReference}; {@code NaN} for a round whose window was not those ten minutes.
     */
    public Spread kipP99Ratio() {
        return Spread.of(rounds.stream().mapToDouble(kip::ratio).toArray());
    }

    /** Whether every round had KIP-1358's ten-minute window, so that {@link #kipP99Ratio()} can be judged. */
    public boolean kipWindow() {
        return !rounds.isEmpty() && rounds.stream().allMatch(KipReference::kipWindow);
    }

    /** KIP-1358's criterion 1 as it measures it: the median round within 1.5×. */
    public boolean kipP99Pass() {
        double m = kipP99Ratio().median();
        return !Double.isNaN(m) && m <= MAX_P99_RATIO;
    }

    /** Window P99 over the run's steady reference for one view, over the rounds. */
    public Spread p99Ratio(View view) {
        return Spread.of(
                rounds.stream().mapToDouble(r -> r.p99Ratio(view, reference)).toArray());
    }

    /** The rounds' own steady P99 of one view, ms (shown beside the pooled reference, not divided by). */
    public Spread steadyP99(View view) {
        return Spread.of(rounds.stream()
                .mapToDouble(r -> r.latency().steady().get(view).p99Ms())
                .toArray());
    }

    /** Window P99 of one view, ms. */
    public Spread windowP99(View view) {
        return Spread.of(rounds.stream()
                .mapToDouble(r -> r.latency().window().get(view).p99Ms())
                .toArray());
    }

    /** Recovery time in seconds ({@code NaN} for a round that did not recover, which is left out). */
    public Spread recoverySeconds() {
        return Spread.of(rounds.stream()
                .mapToDouble(r -> r.recoveryMs().isPresent() ? r.recoveryMs().getAsLong() / 1000.0 : Double.NaN)
                .toArray());
    }

    /** The physical limit (last preferred ISR re-entry after unfencing), seconds. */
    public Spread physicalLimitSeconds() {
        return Spread.of(rounds.stream()
                .mapToDouble(r -> r.recovery().timeline().physicalLimitMs().isPresent()
                        ? r.recovery().timeline().physicalLimitMs().getAsLong() / 1000.0
                        : Double.NaN)
                .toArray());
    }

    /** The broker's CPU use during catch-up, cores. */
    public Spread catchUpBusyCores() {
        return Spread.of(rounds.stream()
                .mapToDouble(r -> {
                    OptionalDouble d = r.saturation().catchUpBusyCores();
                    return d.isPresent() ? d.getAsDouble() : Double.NaN;
                })
                .toArray());
    }

    /** The broker's CPU use in the steady phase (uncapped), cores. */
    public Spread steadyCores() {
        return Spread.of(rounds.stream()
                .mapToDouble(r -> value(r.saturation().steadyCores()))
                .toArray());
    }

    /** The broker's CPU use after its last ISR re-entry (still capped), cores. */
    public Spread afterCatchUpCores() {
        return Spread.of(rounds.stream()
                .mapToDouble(r -> value(r.saturation().afterCatchUpCores()))
                .toArray());
    }

    private static double value(OptionalDouble d) {
        return d.isPresent() ? d.getAsDouble() : Double.NaN;
    }

    /** Whether catch-up pacing throttled the restarted broker in any of its rounds. */
    public boolean paced() {
        return rounds.stream().anyMatch(RoundResult::paced);
    }

    /** The rates pacing set over its rounds, MiB/s. */
    public Spread pacingRatesMiBps() {
        return Spread.of(rounds.stream()
                .flatMap(r -> r.trace().pacing().stream())
                .filter(p -> p.rateBytes() >= 0)
                .mapToDouble(p -> p.rateBytes() / 1048576.0)
                .toArray());
    }

    /** Rounds that never recovered within their limit. */
    public long unrecoveredRounds() {
        return rounds.stream().filter(r -> r.recoveryMs().isEmpty()).count();
    }

    public long timeouts() {
        return rounds.stream().mapToLong(RoundResult::timeouts).sum();
    }

    public long failures() {
        return rounds.stream().mapToLong(RoundResult::failures).sum();
    }

    /** Criterion 1: the median round's window P99 (all sends) within 1.5× its steady P99. */
    public boolean p99Pass() {
        double m = p99Ratio(View.ALL).median();
        return !Double.isNaN(m) && m <= MAX_P99_RATIO;
    }

    /** Criterion 2: no send timed out, in any round. */
    public boolean timeoutsPass() {
        return timeouts() == 0;
    }

    /** Recovery time over the baseline's median ({@code NaN} when either is missing). */
    public double recoveryRatio() {
        return recoverySeconds().median() * 1000.0 / baselineRecoveryMedianMs;
    }

    /**
     * Whether criterion 3 can be judged: the baseline ran and recovered, or a round of this policy did not recover
     * (a fail whatever the baseline did). A run comparing gated policies alone (variants of {@code kip-example-scaled}) has no baseline.
     */
    public boolean recoveryJudged() {
        return unrecoveredRounds() > 0 || !Double.isNaN(baselineRecoveryMedianMs);
    }

    /** Criterion 3: every round recovered, and the median recovery within 2× the baseline's. */
    public boolean recoveryPass() {
        double r = recoveryRatio();
        return unrecoveredRounds() == 0 && !Double.isNaN(r) && r <= MAX_RECOVERY_RATIO;
    }
}
