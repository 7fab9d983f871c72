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
public final class Verdict {

    /** Within this factor of the steady reference, a P99 is called near it (the proposal's criterion). */
    static final double NEAR = PolicySummary.MAX_P99_RATIO;

    private Verdict() {
    }

    /** One sentence per policy other than the baseline (or per policy, when the baseline did not run). */
    public static List<String> sentences(LoadTestResult result) {
        List<PolicySummary> summaries = result.summaries();
        Optional<PolicySummary> base = summaries.stream().filter(s -> s.policy().equals(result.baseline())).findFirst();
        double steady = result.steadyReference().p99Ms(View.ALL);
        List<String> out = new ArrayList<>();
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
        String rounds = Math.min(s.rounds().size(), b.rounds().size()) == 1 ? "in one round each"
                : "medians of " + Math.min(s.rounds().size(), b.rounds().size()) + " rounds each";
        String catchUp = String.format(Locale.ROOT, "Under %s the restarted broker caught up in %s instead of %s and led"
                        + " its partitions again after %s instead of %s", s.policy(), seconds(s.physicalLimitSeconds()),
                seconds(b.physicalLimitSeconds()), seconds(s.recoverySeconds()), seconds(b.recoverySeconds()));
        if (!saturated) {
            return catchUp + " (" + rounds + "); its CPU was not capped, so this run shows the mechanism, not what"
                    + " producers feel on a saturated broker.";
        }
        double ps = s.windowP99(View.ALL).median();
        double pb = b.windowP99(View.ALL).median();
        return catchUp + String.format(Locale.ROOT, ", and producers' P99 was %s instead of %s (%s); %s.",
                Durations.text(ps), Durations.text(pb), rounds, nearness(s, b, ps, pb, steady));
    }

    private static String alone(PolicySummary s, double steady) {
        double p = s.windowP99(View.ALL).median();
        return String.format(Locale.ROOT, "Under %s the restarted broker caught up in %s and led its partitions again"
                        + " after %s, and producers' P99 was %s against the steady %s.", s.policy(),
                seconds(s.physicalLimitSeconds()), seconds(s.recoverySeconds()), Durations.text(p), Durations.text(steady));
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
     * The role of the restarted broker whose writes were slow, when one was: an in-sync follower holds back every
     * {@code acks=all} write to its partitions whoever leads; a slow leader holds back its own.
     */
    private static String cause(PolicySummary s, PolicySummary b, double steady) {
        double fs = s.windowP99(View.IN_SYNC_FOLLOWER).median();
        double fb = b.windowP99(View.IN_SYNC_FOLLOWER).median();
        if (fs > NEAR * steady || fb > NEAR * steady) {
            return String.format(Locale.ROOT, ", because every acks=all write to a partition where the restarted broker"
                    + " was back in the ISR waited for it (P99 of those writes %s under %s, %s under %s)",
                    Durations.text(fs), s.policy(), Durations.text(fb), b.policy());
        }
        double ls = s.windowP99(View.LEADER).median();
        double lb = b.windowP99(View.LEADER).median();
        if (ls > NEAR * steady || lb > NEAR * steady) {
            return String.format(Locale.ROOT, ", because writes to the partitions the restarted broker led waited for"
                    + " it (P99 %s under %s, %s under %s)", Durations.text(ls), s.policy(), Durations.text(lb), b.policy());
        }
        return "";
    }

    private static String seconds(Spread s) {
        return s.n() == 0 ? "n/a" : String.format(Locale.ROOT, "%.1f s", s.median());
    }
}
