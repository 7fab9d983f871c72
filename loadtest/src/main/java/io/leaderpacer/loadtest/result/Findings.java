package io.leaderpacer.loadtest.result;

import io.leaderpacer.loadtest.load.View;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * What a load test shows, in sentences computed from its figures: how steady the steady state was, whether the
 * broker was saturated at all, how each policy fared against the baseline, and whether the difference stands out of
 * the rounds' spread. Nothing here is written in advance: a run where the gate does not help says so.
 *
 * <p>Why the comparison leads with absolute figures: a policy is compared with the baseline by the window P99s
 * measured side by side, in alternating rounds of one run, and by their ratios to one steady reference pooled over
 * every round ({@link SteadyReference}). Both orderings then agree by construction; a comparison of ratios to each
 * round's own steady phase once called a policy five times worse whose absolute P99 was a third of the baseline's.
 */
public final class Findings {

    /** Below this share of its quota during catch-up, a broker is not called saturated. */
    static final double SATURATED_SHARE = 0.8;

    private Findings() {}

    /**
     * KIP-1358's figures, where the run measured its window: the reference (steady sends pooled) and each round's P99
     * over the ten minutes from unfencing, in milliseconds, so that every ratio in the table can be checked.
     */
    static Optional<String> kipWindow(LoadTestResult result) {
        List<RoundResult> measured =
                result.rounds().stream().filter(KipReference::kipWindow).toList();
        if (measured.isEmpty()) {
            return Optional.empty();
        }
        KipReference kip = result.kipReference();
        StringBuilder rounds = new StringBuilder();
        for (RoundResult r : measured) {
            rounds.append(rounds.length() == 0 ? "" : "; ")
                    .append(String.format(
                            Locale.ROOT,
                            "%s %d: %.1f ms (%.2f×)",
                            r.policy(),
                            r.round(),
                            r.latency().kipWindow().get(View.ALL).p99Ms(),
                            kip.ratio(r)));
        }
        return Optional.of(String.format(
                Locale.ROOT,
                "KIP-1358's reference: P99 %.1f ms of %d sends, every round's steady phase pooled as sends; each round's"
                        + " P99 over the ten minutes from unfencing, all sends: %s.",
                kip.p99Ms(),
                kip.sends(),
                rounds));
    }

    public static List<String> of(LoadTestResult result) {
        List<String> out = new ArrayList<>();
        SteadyReference reference = result.steadyReference();
        result.warmUp().filter(w -> !w.steady()).ifPresent(w -> out.add("The " + w.describe() + "."));
        out.add(reference.describe());
        kipWindow(result).ifPresent(out::add);
        result.disturbedReference().ifPresent(out::add);
        for (RoundResult r : result.rounds()) {
            if (reference.flagged(r)) {
                out.add(String.format(
                        Locale.ROOT,
                        "Round %d of %s: its own steady P99 was %.1f ms, %.1f× the steady"
                                + " reference: its steady phase was disturbed, so its ratios use the pooled reference, not its"
                                + " own.",
                        r.round(),
                        r.policy(),
                        r.latency().steady().get(View.ALL).p99Ms(),
                        reference.offBy(r)));
            }
        }
        List<PolicySummary> summaries = result.summaries();
        saturation(result, summaries, out);
        for (PolicySummary s : summaries) {
            out.add(String.format(
                    Locale.ROOT,
                    "%s: P99 in the window after unfencing was %s× the steady reference for"
                            + " all sends, %s× for the protected partitions (preferred leader = restarted broker) and %s× for the"
                            + " others; %d time-outs; recovery %s s, physical limit %s s.",
                    s.policy(),
                    s.p99Ratio(View.ALL).text("%.2f"),
                    s.p99Ratio(View.PROTECTED).text("%.2f"),
                    s.p99Ratio(View.OTHER).text("%.2f"),
                    s.timeouts(),
                    s.recoverySeconds().text("%.1f"),
                    s.physicalLimitSeconds().text("%.1f")));
        }
        Optional<PolicySummary> base = summaries.stream()
                .filter(s -> s.policy().equals(result.baseline()))
                .findFirst();
        if (base.isPresent()) {
            for (PolicySummary s : summaries) {
                if (s != base.get()) {
                    out.add(comparison(s, base.get()));
                }
            }
        }
        return out;
    }

    private static void saturation(LoadTestResult result, List<PolicySummary> summaries, List<String> out) {
        if (!result.saturated()) {
            out.add(
                    "The restarted broker was not saturated on its own (no CPU quota could be set, or none was asked for):"
                            + " whoever leads, catch-up competes with every broker for the same cores, so this run cannot show"
                            + " whether the gate protects producers. It shows the mechanism only (gate, batches, recovery time).");
            return;
        }
        for (PolicySummary s : summaries) {
            Spread busy = s.catchUpBusyCores();
            double cap = s.rounds().get(0).saturation().capCores();
            if (!Double.isNaN(busy.median()) && !Double.isNaN(cap) && busy.median() < SATURATED_SHARE * cap) {
                if (s.paced()) {
                    out.add(String.format(
                            Locale.ROOT,
                            "Under %s catch-up pacing held the broker at %.2f of its %.2f-core"
                                    + " quota during catch-up (paced at %s MiB/s)%s: below its quota by design, not for want"
                                    + " of work.",
                            s.policy(),
                            busy.median(),
                            cap,
                            s.pacingRatesMiBps().text("%.1f"),
                            unpacedBusy(summaries)));
                } else {
                    out.add(String.format(
                            Locale.ROOT,
                            "Under %s the broker used %.2f of its %.2f-core quota during"
                                    + " catch-up: it was not saturated, so that policy's rounds cannot show the effect.",
                            s.policy(),
                            busy.median(),
                            cap));
                }
            }
            Spread steady = s.steadyCores();
            Spread after = s.afterCatchUpCores();
            if (!Double.isNaN(after.median()) && !Double.isNaN(cap) && after.median() >= SATURATED_SHARE * cap) {
                out.add(String.format(
                        Locale.ROOT,
                        "Under %s the broker still used %.2f of its %.2f-core quota after its"
                                + " last ISR re-entry (%.2f core uncapped in the steady phase): the steady load alone nearly fills"
                                + " the quota, so latency after catch-up measures a queue, not the recovery. Use a larger"
                                + " --cpu-cap or a lower --rate.",
                        s.policy(),
                        after.median(),
                        cap,
                        steady.median()));
            }
        }
    }

    /** What the unpaced policies' rounds used, as what the broker would have used without pacing. */
    private static String unpacedBusy(List<PolicySummary> summaries) {
        double[] busy = summaries.stream()
                .filter(x -> !x.paced())
                .flatMap(x -> x.rounds().stream())
                .mapToDouble(r -> r.saturation().catchUpBusyCores().orElse(Double.NaN))
                .toArray();
        Spread u = Spread.of(busy);
        return u.n() == 0 ? "" : String.format(Locale.ROOT, "; unpaced, it used %s core in this run", u.text("%.2f"));
    }

    /**
     * One policy against the baseline: the absolute window P99s (all sends, protected partitions), their direction
     * and factor, the same as ratios to the steady reference, and whether the rounds' spread can tell them apart.
     */
    static String comparison(PolicySummary s, PolicySummary base) {
        StringBuilder sb = new StringBuilder(String.format(
                Locale.ROOT,
                "%s against %s, measured side by side in" + " alternating rounds:",
                s.policy(),
                base.policy()));
        boolean apartEverywhere = true;
        boolean compared = false;
        for (View v : List.of(View.ALL, View.PROTECTED)) {
            Spread p = s.windowP99(v);
            Spread b = base.windowP99(v);
            if (p.n() == 0 || b.n() == 0) {
                continue;
            }
            compared = true;
            apartEverywhere &= p.max() < b.min() || p.min() > b.max();
            sb.append(String.format(
                    Locale.ROOT,
                    " window P99 of %s %s against %s (%s, %.2f×; %s× against %s× the" + " steady reference);",
                    v == View.ALL ? "all sends" : "the protected partitions",
                    Durations.text(p.median()),
                    Durations.text(b.median()),
                    direction(p.median(), b.median()),
                    p.median() / b.median(),
                    s.p99Ratio(v).text("%.1f"),
                    base.p99Ratio(v).text("%.1f")));
        }
        if (!compared) {
            return sb.append(" no sends to compare.").toString();
        }
        int rounds = Math.min(s.rounds().size(), base.rounds().size());
        if (rounds < 2) {
            sb.append(" one round per policy cannot show a spread, so this is an observation, not a difference: run"
                    + " pacer loadtest (3 rounds each) to see whether it holds.");
        } else if (apartEverywhere) {
            sb.append(" the ranges of the rounds do not overlap.");
        } else {
            sb.append(" the ranges of the rounds overlap, so the difference is within the spread of this run.");
        }
        return sb.toString();
    }

    private static String direction(double policy, double baseline) {
        if (policy < baseline) {
            return "lower";
        }
        return policy > baseline ? "higher" : "the same";
    }
}
