package io.leaderpacer.loadtest.result;

import io.leaderpacer.loadtest.load.View;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * What a load test saw, in one plain sentence per policy compared with the baseline: how long the restarted broker
 * took to catch up and to lead again, what producers' P99 was, and whether that is near the steady state, with the
 * cause when the run measured one. The tables and findings follow it with the detail and the caveats.
 *
 * <p>Every figure is a median over the policy's rounds of the same run, and every latency is absolute: the sentence
 * cannot say "better" where the absolute figures say "worse".
 */
public final class VerdictSentences {

    /** Within this factor of the steady reference, a P99 is called near it (the proposal's criterion). */
    static final double NEAR = PolicySummary.MAX_P99_RATIO;

    /** The restarted broker's roles, in the order that wins a tie: the in-sync follower is the usual cause. */
    private static final List<View> ROLES = List.of(View.IN_SYNC_FOLLOWER, View.LEADER, View.NOT_IN_ISR);

    private VerdictSentences() {}

    /** One sentence per policy other than the baseline (or per policy, when the baseline did not run). */
    public static List<String> sentences(LoadTestResult result) {
        List<PolicySummary> summaries = result.summaries();
        Optional<PolicySummary> base = summaries.stream()
                .filter(s -> s.policy().equals(result.baseline()))
                .findFirst();
        double steady = result.steadyReference().p99Ms(View.ALL);
        List<String> out = new ArrayList<>();
        Optional<String> disturbed = result.disturbedReference();
        if (disturbed.isPresent()) {
            // No sentence may call a P99 near (or far from) a steady state the run did not measure.
            summaries.forEach(s -> out.add(measured(s) + "."));
            out.add(disturbed.get());
            return out;
        }
        for (PolicySummary s : summaries) {
            if (base.isPresent() && s == base.get()) {
                continue;
            }
            out.add(base.isPresent() ? compared(s, base.get(), steady, result.saturated()) : alone(s, steady));
        }
        if (out.isEmpty() && base.isPresent()) {
            out.add(alone(base.get(), steady));
        }
        return out;
    }

    private static String compared(PolicySummary s, PolicySummary b, double steady, boolean saturated) {
        String rounds = Math.min(s.rounds().size(), b.rounds().size()) == 1
                ? "in one round each"
                : "medians of " + Math.min(s.rounds().size(), b.rounds().size()) + " rounds each";
        String catchUp = String.format(
                Locale.ROOT,
                "Under %s the restarted broker caught up in %s instead of %s and led"
                        + " its partitions again after %s instead of %s",
                s.policy(),
                seconds(s.physicalLimitSeconds()),
                seconds(b.physicalLimitSeconds()),
                seconds(s.recoverySeconds()),
                seconds(b.recoverySeconds()));
        if (!saturated) {
            return catchUp + " (" + rounds + "); its CPU was not capped, so this run shows the mechanism, not what"
                    + " producers feel on a saturated broker.";
        }
        double ps = s.windowP99(View.ALL).median();
        double pb = b.windowP99(View.ALL).median();
        return catchUp
                + String.format(
                        Locale.ROOT,
                        ", and producers' P99 was %s instead of %s (%s); %s.",
                        Durations.text(ps),
                        Durations.text(pb),
                        rounds,
                        nearness(s, b, ps, pb, steady));
    }

    private static String alone(PolicySummary s, double steady) {
        return measured(s) + " against the steady " + Durations.text(steady) + ".";
    }

    /** What one policy's rounds measured, in absolute figures only. */
    private static String measured(PolicySummary s) {
        return String.format(
                Locale.ROOT,
                "Under %s the restarted broker caught up in %s and led its partitions again"
                        + " after %s, and producers' P99 was %s",
                s.policy(),
                seconds(s.physicalLimitSeconds()),
                seconds(s.recoverySeconds()),
                Durations.text(s.windowP99(View.ALL).median()));
    }

    /** Whether the two P99s are near the steady state, and why not when the run measured the cause. */
    private static String nearness(PolicySummary s, PolicySummary b, double ps, double pb, double steady) {
        boolean sNear = ps <= NEAR * steady;
        boolean bNear = pb <= NEAR * steady;
        String ref = "the steady " + Durations.text(steady);
        if (sNear && bNear) {
            return "both are within " + NEAR + "× of " + ref;
        }
        if (sNear) {
            return s.policy() + "'s is within " + NEAR + "× of " + ref + ", " + b.policy() + "'s is not";
        }
        if (bNear) {
            return b.policy() + "'s is within " + NEAR + "× of " + ref + ", " + s.policy() + "'s is not";
        }
        return "neither is near " + ref + cause(s, b, steady);
    }

    /**
     * Where the slowest writes went under each policy, by the restarted broker's role, when that role's P99 was not
     * near the steady state. Why per policy: the role differs between policies (under {@code immediate} the writes
     * that wait for a slow in-sync follower; under a paced catch-up the partitions it leads once leadership returns),
     * and a sentence naming one cause for both would be wrong for one of them.
     */
    private static String cause(PolicySummary s, PolicySummary b, double steady) {
        List<String> parts = new ArrayList<>();
        slowestRole(s, steady)
                .ifPresent(v -> parts.add(String.format(
                        Locale.ROOT,
                        "under %s %s (P99 %s)",
                        s.policy(),
                        where(v, parts.isEmpty()),
                        Durations.text(s.windowP99(v).median()))));
        slowestRole(b, steady)
                .ifPresent(v -> parts.add(String.format(
                        Locale.ROOT,
                        "under %s %s (P99 %s)",
                        b.policy(),
                        where(v, parts.isEmpty()),
                        Durations.text(b.windowP99(v).median()))));
        return parts.isEmpty() ? "" : "; the slowest writes went, " + String.join(", ", parts);
    }

    private static Optional<View> slowestRole(PolicySummary s, double steady) {
        View slowest = null;
        double p99 = NEAR * steady;
        for (View v : ROLES) {
            double m = s.windowP99(v).median();
            if (!Double.isNaN(m) && m > p99) {
                slowest = v;
                p99 = m;
            }
        }
        return Optional.ofNullable(slowest);
    }

    private static String where(View role, boolean first) {
        String to = first ? "to the partitions " : "to those ";
        return switch (role) {
            case LEADER -> to + "the restarted broker led";
            case IN_SYNC_FOLLOWER ->
                to + "where it was back in the ISR, for which every acks=all write waits whoever leads";
            // Kafka's acks=all does not wait for a replica outside the ISR: what held these writes, the run does not
            // measure (a produce request is answered when all its partitions are, and the leaders share the host).
            default ->
                to + "whose ISR it was not in when sent, which acks=all does not make wait for it (what held"
                        + " them, this run does not measure)";
        };
    }

    private static String seconds(Spread s) {
        return s.n() == 0 ? "n/a" : String.format(Locale.ROOT, "%.1f s", s.median());
    }
}
