package io.leaderpacer.loadtest.result;

import io.leaderpacer.loadtest.load.View;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * What a load test shows, in sentences computed from its figures: whether the broker was saturated at all, how each
 * policy's protected producers fared against the baseline's, and whether the difference stands out of the rounds'
 * spread. Nothing here is written in advance: a run where the gate does not help says so.
 */
public final class Findings {

    /** Below this share of its quota during catch-up, a broker is not called saturated. */
    static final double SATURATED_SHARE = 0.8;

    private Findings() {
    }

    public static List<String> of(LoadTestResult result) {
        List<String> out = new ArrayList<>();
        List<PolicySummary> summaries = result.summaries();
        if (!result.saturated()) {
            out.add("The restarted broker was not saturated on its own (no CPU quota could be set, or none was asked for):"
                    + " whoever leads, catch-up competes with every broker for the same cores, so this run cannot show"
                    + " whether the gate protects producers. It shows the mechanism only (gate, batches, recovery time).");
        } else {
            for (PolicySummary s : summaries) {
                Spread busy = s.catchUpBusyCores();
                double cap = s.rounds().get(0).saturation().capCores();
                if (!Double.isNaN(busy.median()) && !Double.isNaN(cap) && busy.median() < SATURATED_SHARE * cap) {
                    out.add(String.format(Locale.ROOT, "Under %s the broker used %.2f of its %.2f-core quota during catch-up:"
                            + " it was not saturated, so that policy's rounds cannot show the effect.", s.policy(), busy.median(), cap));
                }
                Spread steady = s.steadyCores();
                Spread after = s.afterCatchUpCores();
                if (!Double.isNaN(after.median()) && !Double.isNaN(cap) && after.median() >= SATURATED_SHARE * cap) {
                    out.add(String.format(Locale.ROOT, "Under %s the broker still used %.2f of its %.2f-core quota after its"
                            + " last ISR re-entry (%.2f core uncapped in the steady phase): the steady load alone nearly fills"
                            + " the quota, so latency after catch-up measures a queue, not the recovery. Use a larger"
                            + " --cpu-cap or a lower --rate.", s.policy(), after.median(), cap, steady.median()));
                }
            }
        }
        Optional<PolicySummary> base = summaries.stream().filter(s -> s.policy().equals(result.baseline())).findFirst();
        for (PolicySummary s : summaries) {
            out.add(String.format(Locale.ROOT, "%s: P99 in the window after unfencing was %s× the steady P99 for all sends,"
                    + " %s× for the protected partitions (preferred leader = restarted broker) and %s× for the others;"
                    + " %d time-outs; recovery %s s, physical limit %s s.", s.policy(), s.p99Ratio(View.ALL).text("%.2f"),
                    s.p99Ratio(View.PROTECTED).text("%.2f"), s.p99Ratio(View.OTHER).text("%.2f"), s.timeouts(),
                    s.recoverySeconds().text("%.1f"), s.physicalLimitSeconds().text("%.1f")));
        }
        if (base.isPresent()) {
            Spread b = base.get().p99Ratio(View.PROTECTED);
            for (PolicySummary s : summaries) {
                if (s == base.get()) {
                    continue;
                }
                Spread p = s.p99Ratio(View.PROTECTED);
                if (p.n() == 0 || b.n() == 0) {
                    continue;
                }
                boolean apart = p.max() < b.min() || p.min() > b.max();
                String direction = p.median() < b.median() ? "lower" : "higher";
                out.add(String.format(Locale.ROOT, "Protected producers under %s: median P99 ratio %.2f against %.2f under %s"
                        + " (%s); %s.", s.policy(), p.median(), b.median(), base.get().policy(), direction,
                        apart ? "the ranges of the rounds do not overlap"
                                : "the ranges of the rounds overlap, so the difference is within the spread of this run"));
            }
        }
        return out;
    }
}
