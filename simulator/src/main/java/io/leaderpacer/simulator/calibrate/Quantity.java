package io.leaderpacer.simulator.calibrate;

import io.leaderpacer.simulator.model.RestartedRole;
import io.leaderpacer.simulator.run.PolicyOutcome;

import java.util.function.ToDoubleFunction;

/**
 * A figure both the load test and the model give, defined the same way on both sides, so that a residual compares
 * like with like. Times are seconds after the restarted broker's unfencing.
 *
 * <p>Some figures are settled before the policy can act: the steady phase ends before the broker stops, and no
 * election can move a leader to the restarted broker before its first partition is back in an ISR. Their rounds are
 * samples of one quantity whatever the policy, so their target is the median over every round of every policy
 * ({@link #beforeThePolicyActs()}); split by policy, three rounds each, the two medians differ by noise alone.
 *
 * <p>The P99 ratios divide a window P99, which the policy moves, by a steady P99, which it cannot. Their target is
 * the median window P99 of the policy's rounds over the steady P99 pooled over every round ({@link #ratio()}), not
 * the median of per-round ratios: a round's steady P99 varied five-fold on one machine (36-204 ms in the shipped
 * runs), and a per-round ratio carries that noise into a figure the model, whose steady phase is the same for every
 * policy, would have to reproduce.
 */
public enum Quantity {
    REENTRY_FIRST(
            "ISR re-entry first",
            "s",
            true,
            m -> m.reentry().firstSeconds(),
            o -> o.classes().reentries().firstSeconds()),
    REENTRY_P50(
            "ISR re-entry p50",
            "s",
            false,
            m -> m.reentry().p50Seconds(),
            o -> o.classes().reentries().quantileSeconds(0.5)),
    REENTRY_P90(
            "ISR re-entry p90",
            "s",
            false,
            m -> m.reentry().p90Seconds(),
            o -> o.classes().reentries().quantileSeconds(0.9)),
    REENTRY_LAST(
            "ISR re-entry last (physical limit)",
            "s",
            false,
            m -> m.reentry().lastSeconds(),
            o -> o.classes().reentries().lastSeconds()),
    GATE_RELEASE(
            "gate release",
            "s",
            false,
            m -> m.timeline().gateReleaseSeconds(),
            o -> o.classes().gateReleaseMs() < 0 ? Double.NaN : o.classes().gateReleaseMs() / 1000.0),
    RECOVERY(
            "recovery (>= 99 % led)",
            "s",
            false,
            m -> m.timeline().recoverySeconds(),
            o -> o.kip().recoveryMs() < 0 ? Double.NaN : o.kip().recoveryMs() / 1000.0),
    /**
     * The restarted broker's CPU use from its unfencing to its last ISR re-entry (cores), fitted on: under the paced
     * policies it is the one figure that identifies {@code catchUpBaseCores} (a throttled catch-up moves too few
     * bytes for its CPU to show in the re-entry timelines). A run without CPU samples gives no target.
     */
    CATCH_UP_CORES(
            "CPU in catch-up",
            "cores",
            false,
            m -> m.cpu().catchUpBusyCores(),
            o -> o.classes().catchUpBusyCores()),
    STEADY_P99(
            "steady P99 (all)",
            "ms",
            true,
            m -> m.latency().steadyP99Ms(),
            o -> o.kip().steadyP99Ms()),
    /**
     * Every partition's window P99 over the pooled steady P99: the load test's headline ratio, reported beside the fit
     * and not fitted on (the protected and other classes it pools are, so it would weigh the same sends twice).
     */
    P99_RATIO_ALL(
            "P99 ratio, all partitions",
            "x",
            m -> m.latency().windowP99Ms(),
            m -> m.latency().steadyP99Ms(),
            o -> o.kip().windowP99Ms() / o.kip().steadyP99Ms(),
            true),
    P99_RATIO_PROTECTED(
            "P99 ratio, protected class",
            "x",
            m -> m.latency().windowP99ProtectedMs(),
            m -> m.latency().steadyP99ProtectedMs(),
            o -> o.classes().windowP99ProtectedMs() / o.classes().steadyP99ProtectedMs()),
    P99_RATIO_OTHER(
            "P99 ratio, other partitions",
            "x",
            m -> m.latency().windowP99OtherMs(),
            m -> m.latency().steadyP99Ms(),
            o -> o.classes().windowP99OtherMs() / o.kip().steadyP99Ms()),
    P99_RATIO_LEADER(
            "P99 ratio, restarted broker leads",
            "x",
            r -> r.latency().roles().leaderMs(),
            m -> m.latency().steadyP99Ms(),
            o -> o.classes().windowP99Ms(RestartedRole.LEADER) / o.kip().steadyP99Ms(),
            false),
    P99_RATIO_IN_SYNC_FOLLOWER(
            "P99 ratio, restarted broker in-sync follower",
            "x",
            r -> r.latency().roles().inSyncFollowerMs(),
            m -> m.latency().steadyP99Ms(),
            o -> o.classes().windowP99Ms(RestartedRole.IN_SYNC_FOLLOWER)
                    / o.kip().steadyP99Ms(),
            true),
    P99_RATIO_NOT_IN_ISR(
            "P99 ratio, restarted broker not in ISR",
            "x",
            r -> r.latency().roles().notInIsrMs(),
            m -> m.latency().steadyP99Ms(),
            o -> o.classes().windowP99Ms(RestartedRole.NOT_IN_ISR) / o.kip().steadyP99Ms(),
            true);

    private final String label;
    private final String unit;
    /** Settled before the policy can act: pooled over the policies' rounds. */
    private final boolean beforeThePolicyActs;
    /**
     * Reported beside the fit, not fitted on: the in-sync and out-of-ISR roles say where the model's class figures
     * come from, and fitting on them as well would weigh the same sends twice. The leader role is fitted on: it is
     * what identifies the cost of a move ({@code moveRetryMs}), which no other figure isolates.
     */
    private final boolean diagnostic;
    /** The figure of one round; for a ratio, its numerator. */
    private final ToDoubleFunction<MeasuredRound> measured;
    /** A ratio's denominator, settled before the policy acts and so pooled over every round; null for a plain figure. */
    private final ToDoubleFunction<MeasuredRound> pooledDenominator;

    private final ToDoubleFunction<PolicyOutcome> modelled;

    /** A plain figure, fitted on. */
    Quantity(
            String label,
            String unit,
            boolean beforeThePolicyActs,
            ToDoubleFunction<MeasuredRound> measured,
            ToDoubleFunction<PolicyOutcome> modelled) {
        this(label, unit, beforeThePolicyActs, false, measured, null, modelled);
    }

    /** A plain figure the policy moves, reported only. */
    Quantity(
            String label,
            String unit,
            ToDoubleFunction<MeasuredRound> measured,
            ToDoubleFunction<PolicyOutcome> modelled) {
        this(label, unit, false, true, measured, null, modelled);
    }

    /** A ratio of a figure the policy moves to one it cannot (pooled). */
    Quantity(
            String label,
            String unit,
            ToDoubleFunction<MeasuredRound> numerator,
            ToDoubleFunction<MeasuredRound> pooledDenominator,
            ToDoubleFunction<PolicyOutcome> modelled) {
        this(label, unit, false, false, numerator, pooledDenominator, modelled);
    }

    /** A ratio, reported only ({@code diagnostic}) or fitted on. */
    Quantity(
            String label,
            String unit,
            ToDoubleFunction<MeasuredRound> numerator,
            ToDoubleFunction<MeasuredRound> pooledDenominator,
            ToDoubleFunction<PolicyOutcome> modelled,
            boolean diagnostic) {
        this(label, unit, false, diagnostic, numerator, pooledDenominator, modelled);
    }

    Quantity(
            String label,
            String unit,
            boolean beforeThePolicyActs,
            boolean diagnostic,
            ToDoubleFunction<MeasuredRound> measured,
            ToDoubleFunction<MeasuredRound> pooledDenominator,
            ToDoubleFunction<PolicyOutcome> modelled) {
        this.label = label;
        this.unit = unit;
        this.beforeThePolicyActs = beforeThePolicyActs;
        this.diagnostic = diagnostic;
        this.measured = measured;
        this.pooledDenominator = pooledDenominator;
        this.modelled = modelled;
    }

    public String label() {
        return label;
    }

    public String unit() {
        return unit;
    }

    /** Whether the figure is settled before any policy acts, so that every policy's rounds measure the same thing. */
    public boolean beforeThePolicyActs() {
        return beforeThePolicyActs;
    }

    /** Reported beside the fit, not fitted on. */
    public boolean diagnostic() {
        return diagnostic;
    }

    /** Whether the target is a median over the policy's rounds divided by a median over every round. */
    public boolean ratio() {
        return pooledDenominator != null;
    }

    /** The round's figure; for a {@link #ratio()}, its numerator (the window P99, ms). */
    public double measured(MeasuredRound round) {
        return measured.applyAsDouble(round);
    }

    /** A {@link #ratio()}'s denominator in the round (its steady P99, ms); NaN for a plain figure. */
    public double measuredDenominator(MeasuredRound round) {
        return pooledDenominator == null ? Double.NaN : pooledDenominator.applyAsDouble(round);
    }

    public double modelled(PolicyOutcome outcome) {
        return modelled.applyAsDouble(outcome);
    }
}
