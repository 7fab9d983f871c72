package io.leaderpacer.loadtest.result;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A whole load test: what ran (the settings as printed) and every round, in run order.
 *
 * @param settingsLines the settings, as printed before the run
 * @param saturated     whether the restarted broker was capped (a run without it cannot show the effect)
 * @param baseline      the policy the others' recovery is compared with
 * @param rounds        every round in the order they ran
 */
public record LoadTestResult(List<String> settingsLines, boolean saturated, String baseline, List<RoundResult> rounds) {

    public LoadTestResult {
        settingsLines = List.copyOf(settingsLines);
        rounds = List.copyOf(rounds);
    }

    /** Per policy, in the order they first ran, with the baseline's median recovery for criterion 3. */
    public List<PolicySummary> summaries() {
        Map<String, List<RoundResult>> byPolicy = new LinkedHashMap<>();
        for (RoundResult r : rounds) {
            byPolicy.computeIfAbsent(r.policy(), k -> new ArrayList<>()).add(r);
        }
        List<RoundResult> base = byPolicy.getOrDefault(baseline, List.of());
        double baseRecovery = new PolicySummary(baseline, base, Double.NaN).recoverySeconds().median() * 1000.0;
        List<PolicySummary> out = new ArrayList<>();
        byPolicy.forEach((name, rs) -> out.add(new PolicySummary(name, rs, baseRecovery)));
        return out;
    }
}
