package io.leaderpacer.simulator.report;

import io.leaderpacer.engine.config.ConfigKey;
import io.leaderpacer.engine.policy.PolicyRegistry;
import io.leaderpacer.simulator.run.KipAcceptance;
import io.leaderpacer.simulator.run.PolicyOutcome;
import io.leaderpacer.simulator.run.ScenarioResult;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The trade-off an operator chooses on before a restart: each policy's P99 over steady against the time until the
 * restarted broker leads again, fastest first, with the policies no other beats on both marked.
 *
 * <p>Why a frontier and not a verdict: KIP-1358's two criteria pull against each other (pacing the catch-up protects
 * producers and lengthens the recovery), and which point is right depends on the operator's own bound on either. A
 * policy is on the frontier when no other policy of the same simulation is at least as good on P99, on recovery and on
 * time-outs and better on one of them; a policy that had not recovered by the simulation's end counts as infinitely slow.
 */
public final class Frontier {

    /** The policy the rate sweep changes: the preset an operator starts from. */
    public static final String SWEPT_PRESET = PolicyRegistry.RECOMMENDED_PACED;

    private Frontier() {}

    /**
     * One policy's place on the trade-off.
     *
     * @param policy        the policy's name, as {@code --policy} and the agent's config take it
     * @param p99Ratio      P99 over the recovery window over the steady P99
     * @param recoveryS     seconds from the unfencing until the broker led its preferred partitions again; NaN when
     *                      it did not by the simulation's end
     * @param recoveryRatio that over the baseline's ({@code immediate}, Kafka's behaviour today); NaN when unknown
     * @param timeouts      requests slower than {@code request.timeout.ms}
     * @param acceptance    KIP-1358's three criteria
     * @param onFrontier    no other policy of the simulation beats it
     */
    public record Point(
            String policy,
            double p99Ratio,
            double recoveryS,
            double recoveryRatio,
            long timeouts,
            KipAcceptance acceptance,
            boolean onFrontier) {

        /** KIP-1358's criteria this point misses, in the KIP's order, or "meets all three". */
        public String verdict() {
            List<String> missed = new ArrayList<>();
            if (!acceptance.p99Ok()) {
                missed.add("P99");
            }
            if (!acceptance.timeoutsOk()) {
                missed.add("time-outs");
            }
            if (!acceptance.recoveryOk()) {
                missed.add("recovery");
            }
            return missed.isEmpty() ? "meets all three" : "misses " + String.join(", ", missed);
        }

        private double recoveryOrInfinity() {
            return Double.isNaN(recoveryS) ? Double.POSITIVE_INFINITY : recoveryS;
        }

        /**
         * At least as good on P99, recovery and time-outs, and better on one of them, each compared as the table
         * shows it (P99 to 0.01×, recovery to 0.1 s): two policies that print alike are alike.
         */
        boolean dominates(Point o) {
            double p99 = Math.round(p99Ratio * 100);
            double otherP99 = Math.round(o.p99Ratio * 100);
            double back = shown(recoveryOrInfinity());
            double otherBack = shown(o.recoveryOrInfinity());
            boolean noWorse = p99 <= otherP99 && back <= otherBack && timeouts <= o.timeouts;
            boolean better = p99 < otherP99 || back < otherBack || timeouts < o.timeouts;
            return noWorse && better;
        }

        private static double shown(double seconds) {
            return Double.isInfinite(seconds) ? seconds : Math.round(seconds * 10);
        }
    }

    /** The policy text that runs {@link #SWEPT_PRESET} with its catch-up held at a static rate. */
    public static String staticRatePolicy(long bytesPerSecond) {
        return SWEPT_PRESET + ":" + ConfigKey.CATCH_UP_PACING.key() + "=static," + ConfigKey.CATCH_UP_RATE_BYTES.key()
                + "=" + bytesPerSecond;
    }

    /** Every policy of the result as a point, fastest recovery first (those not recovered by the end last). */
    public static List<Point> of(ScenarioResult result) {
        List<Point> raw = new ArrayList<>();
        for (PolicyOutcome o : result.outcomes()) {
            KipAcceptance a = result.acceptance(o);
            PolicyOutcome.KipFigures kip = o.kip();
            raw.add(new Point(
                    o.policy().name(),
                    kip.p99Ratio(),
                    kip.recovered() ? kip.recoveryMs() / 1000.0 : Double.NaN,
                    a.recoveryRatio(),
                    kip.timeoutCount(),
                    a,
                    false));
        }
        return marked(raw);
    }

    /** The points with {@link Point#onFrontier} decided among them, fastest recovery first. */
    static List<Point> marked(List<Point> raw) {
        List<Point> points = new ArrayList<>();
        for (Point p : raw) {
            boolean beaten = raw.stream().anyMatch(q -> q.dominates(p));
            points.add(
                    new Point(p.policy, p.p99Ratio, p.recoveryS, p.recoveryRatio, p.timeouts, p.acceptance, !beaten));
        }
        points.sort(Comparator.comparingDouble(Point::recoveryOrInfinity).thenComparingDouble(Point::p99Ratio));
        return points;
    }

    /** The fastest point that keeps P99 within KIP-1358's bound and has no time-out, if any. */
    public static Optional<Point> fastestWithinP99(List<Point> points) {
        return points.stream()
                .filter(p -> p.acceptance.p99Ok() && p.acceptance.timeoutsOk() && !Double.isNaN(p.recoveryS))
                .min(Comparator.comparingDouble(Point::recoveryS));
    }

    /** The frontier as the terminal shows it. */
    public static String text(List<Point> points) {
        StringBuilder b = new StringBuilder();
        b.append("\nfrontier (modelled): P99 over steady against leadership back, fastest first;"
                + " * = no other policy is better on one and no worse on any\n");
        int width = Math.max(
                "policy".length(),
                points.stream().mapToInt(p -> p.policy.length()).max().orElse(0));
        b.append(String.format(
                Locale.ROOT,
                "  %-" + width + "s  %11s  %10s  %11s  %9s  %s%n",
                "policy",
                "P99 xsteady",
                "back after",
                "x immediate",
                "time-outs",
                "KIP-1358"));
        for (Point p : points) {
            b.append(String.format(
                    Locale.ROOT,
                    "%s %-" + width + "s  %11.2f  %10s  %11s  %9d  %s%n",
                    p.onFrontier ? "*" : " ",
                    p.policy,
                    p.p99Ratio,
                    Double.isNaN(p.recoveryS) ? "not by end" : String.format(Locale.ROOT, "%.1f s", p.recoveryS),
                    Double.isNaN(p.recoveryRatio) ? "-" : String.format(Locale.ROOT, "%.2f", p.recoveryRatio),
                    p.timeouts,
                    p.verdict()));
        }
        Optional<Point> pick = fastestWithinP99(points);
        b.append(pick.map(p -> String.format(
                        Locale.ROOT,
                        "fastest within KIP-1358's %.1fx P99 and without time-outs: %s, back after %.1f s%s%n",
                        KipAcceptance.MAX_P99_RATIO,
                        p.policy,
                        p.recoveryS,
                        Double.isNaN(p.recoveryRatio)
                                ? ""
                                : String.format(Locale.ROOT, " (%.2fx immediate)", p.recoveryRatio)))
                .orElse(String.format(
                        Locale.ROOT,
                        "no policy here keeps P99 within KIP-1358's %.1fx without time-outs%n",
                        KipAcceptance.MAX_P99_RATIO)));
        return b.toString();
    }
}
