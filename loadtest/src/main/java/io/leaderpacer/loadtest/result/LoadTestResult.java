package io.leaderpacer.loadtest.result;

import io.leaderpacer.loadtest.load.View;
import io.leaderpacer.loadtest.steady.WarmUpOutcome;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * A whole load test: what ran (the settings as printed) and every round, in run order.
 *
 * @param settingsLines the settings, as printed before the run
 * @param saturated     whether the restarted broker was capped (a run without it cannot show the effect)
 * @param baseline      the policy the others' recovery is compared with
 * @param rounds        every round in the order they ran
 * @param warmUp        how the warm-up before the first round ended (empty when the result was not measured here)
 */
public record LoadTestResult(
        List<String> settingsLines,
        boolean saturated,
        String baseline,
        List<RoundResult> rounds,
        Optional<WarmUpOutcome> warmUp) {

    public LoadTestResult {
        settingsLines = List.copyOf(settingsLines);
        rounds = List.copyOf(rounds);
        Objects.requireNonNull(warmUp, "warmUp");
    }

    /** Without a warm-up outcome. */
    public LoadTestResult(List<String> settingsLines, boolean saturated, String baseline, List<RoundResult> rounds) {
        this(settingsLines, saturated, baseline, rounds, Optional.empty());
    }

    /** KIP-1358's reference: the P99 of every steady-phase send of every round, pooled. */
    public KipReference kipReference() {
        return KipReference.of(rounds);
    }

    /** The steady P99 every ratio divides by, pooled over every round. */
    public SteadyReference steadyReference() {
        return SteadyReference.of(rounds);
    }

    /**
     * The sentence saying that the steady reference itself was disturbed, when it was: then no ratio and no P99
     * verdict of the run stands, only absolute figures.
     */
    public Optional<String> disturbedReference() {
        SteadyReference reference = steadyReference();
        OptionalDouble factor = reference.disturbedBy(warmUp);
        if (factor.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(String.format(
                Locale.ROOT,
                "The steady reference (%s) was %.1f× the P99 the"
                        + " warm-up ended steady at (%s): every round's steady phase was disturbed, so no ratio to it and no P99"
                        + " verdict of this run stands; compare the absolute figures.",
                Durations.text(reference.p99Ms(View.ALL)),
                factor.getAsDouble(),
                Durations.text(SteadyReference.warmUpSteadyP99Ms(warmUp))));
    }

    /** Per policy, in the order they first ran, with the baseline's median recovery for criterion 3. */
    public List<PolicySummary> summaries() {
        Map<String, List<RoundResult>> byPolicy = new LinkedHashMap<>();
        for (RoundResult r : rounds) {
            byPolicy.computeIfAbsent(r.policy(), k -> new ArrayList<>()).add(r);
        }
        SteadyReference reference = steadyReference();
        KipReference kip = kipReference();
        List<RoundResult> base = byPolicy.getOrDefault(baseline, List.of());
        double baseRecovery = new PolicySummary(baseline, base, Double.NaN, reference, kip)
                        .recoverySeconds()
                        .median()
                * 1000.0;
        List<PolicySummary> out = new ArrayList<>();
        byPolicy.forEach((name, rs) -> out.add(new PolicySummary(name, rs, baseRecovery, reference, kip)));
        return out;
    }
}
