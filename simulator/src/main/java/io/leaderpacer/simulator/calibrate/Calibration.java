package io.leaderpacer.simulator.calibrate;

import io.leaderpacer.engine.config.PacingMode;
import io.leaderpacer.report.policy.LoadTestPolicies;
import io.leaderpacer.simulator.scenario.ModelKey;
import io.leaderpacer.simulator.scenario.PolicySpec;
import io.leaderpacer.simulator.scenario.Scenario;

import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.ToDoubleFunction;

/**
 * Fits named model parameters to real load-test rounds by least squares on log ratios, with Nelder-Mead on the
 * parameters' logarithms (no derivatives: the model is a discrete-event simulation).
 *
 * <p>Objective: the sum over every target (policy x quantity) of {@code ln(modelled / measured)^2}, so that a
 * factor of two off counts the same for a 0.5 s re-entry and a 60 s recovery; a target the model cannot produce at
 * all (e.g. never recovered) counts as a factor of ten. What is measured directly is set, not fitted: the downtime,
 * the time from restart to unfencing and the window length (medians of the rounds), and the CPU quota, per quota the
 * rounds ran at ({@link QuotaSetup}).
 */
public final class Calibration {

    /** A target the model has no value for counts as this far off. */
    static final double MISSING = Math.log(10);

    /** The template's policy that models a measured policy {@code X} is named this followed by {@code X}. */
    public static final String AS_RUN = "loadtest-";

    private final List<QuotaSetup> setups;
    private final Map<String, PolicySpec> policies;
    private final long seed;

    private Calibration(List<QuotaSetup> setups, Map<String, PolicySpec> policies, long seed) {
        this.setups = List.copyOf(setups);
        this.policies = policies;
        this.seed = seed;
    }

    /**
     * The calibration of a template scenario (the load test's cluster and workload) on measured rounds: one setup per
     * CPU quota the rounds ran at ({@link QuotaSetup}).
     *
     * @throws IllegalArgumentException when a measured policy has no counterpart in the template
     */
    public static Calibration of(Scenario template, List<MeasuredRound> rounds) {
        Map<String, PolicySpec> policies = new LinkedHashMap<>();
        for (MeasuredRound r : rounds) {
            if (!policies.containsKey(r.policy())) {
                PolicySpec p = modelOf(template, r.policy());
                if (p == null) {
                    throw new IllegalArgumentException("the run's policy '" + r.policy() + "' has no policy named '"
                            + AS_RUN + r.policy() + "'"
                            + (LoadTestPolicies.find(r.policy()).isPresent() ? "" : " or '" + r.policy() + "'") + " in "
                            + template.source());
                }
                policies.put(r.policy(), p);
            }
        }
        return new Calibration(QuotaSetup.of(template, rounds), policies, template.seed());
    }

    /**
     * The template's model of a measured policy {@code X}: its policy {@code loadtest-X} ({@code X} as the load test
     * ran it, with the run's check interval and size), or else its own custom policy named {@code X}. A registered
     * name alone never matches: the scenario's {@code immediate} is Kafka's at its 300 s check interval, not the load
     * test's.
     */
    static PolicySpec modelOf(Scenario template, String measured) {
        PolicySpec p = template.policy(AS_RUN + measured);
        if (p == null && LoadTestPolicies.find(measured).isEmpty()) {
            p = template.policy(measured);
        }
        return p;
    }

    /** Whether any measured policy paced the catch-up: then a throttle bound, and what only it identifies is fitted. */
    public boolean pacesCatchUp() {
        return policies.values().stream().anyMatch(p -> p.config().pacing().mode() != PacingMode.OFF);
    }

    /** One setup per CPU quota of the rounds, the lowest first. */
    public List<QuotaSetup> setups() {
        return setups;
    }

    /** Every setup's targets. */
    public List<Target> targets() {
        return setups.stream().flatMap(q -> q.targets().stream()).toList();
    }

    public Map<String, PolicySpec> policies() {
        return policies;
    }

    /** Seeds per evaluation of the setup with the most rounds of one policy. */
    public int seeds() {
        return setups.stream().mapToInt(QuotaSetup::seeds).max().orElse(1);
    }

    /** The model's figures with the given parameter values, keyed as the targets are. */
    public Map<String, Map<Quantity, Double>> modelled(Map<ModelKey, Double> values) {
        boolean several = setups.size() > 1;
        Map<String, Map<Quantity, Double>> out = new LinkedHashMap<>();
        for (QuotaSetup q : setups) {
            Scenario s = q.scenario().withModel(q.scenario().model().with(values));
            ModelledFigures.of(s, policies, seed, q.seeds())
                    .forEach((policy, figures) -> out.put(q.key(policy, several), figures));
        }
        return out;
    }

    /** Sum of squared log residuals over the chosen targets. */
    static double objective(List<Target> targets, Map<String, Map<Quantity, Double>> modelled) {
        double sum = 0;
        for (Target t : targets) {
            double r = logResidual(t, modelled);
            sum += r * r;
        }
        return sum;
    }

    static double logResidual(Target t, Map<String, Map<Quantity, Double>> modelled) {
        Double m = modelled.getOrDefault(t.policy(), Map.of()).get(t.quantity());
        if (m == null || !(m > 0) || !(t.median() > 0)) {
            return MISSING;
        }
        return Math.log(m / t.median());
    }

    /**
     * Fits the parameters on their logarithms (every parameter is a positive scale), clamped to the bounds: a
     * coordinate search with half the budget, then Nelder-Mead (start simplex: the point and, per parameter, that
     * parameter doubled), restarted from its best point while a restart still gains.
     * Derivative-free because the model is a discrete-event simulation; on logarithms so that a factor counts the
     * same for every parameter.
     *
     * @param maxEvaluations model evaluations at most
     * @param progress       told about each new best point
     */
    public FitResult fit(
            List<FitParameter> parameters, List<Quantity> fitted, int maxEvaluations, Consumer<String> progress) {
        List<Target> aims =
                targets().stream().filter(t -> fitted.contains(t.quantity())).toList();
        int n = parameters.size();
        double[] from = new double[n];
        for (int j = 0; j < n; j++) {
            from[j] = Math.log(parameters.get(j).start());
        }
        int[] evaluations = {0};
        double[] bestScore = {Double.MAX_VALUE};
        // First a coordinate search over a shrinking multiplicative grid (robust far from the optimum), then
        // Nelder-Mead from its best point (better along valleys where two parameters trade off).
        from = coordinateSearch(parameters, aims, from, maxEvaluations / 2, evaluations, bestScore, progress);
        // Nelder-Mead stalls in narrow valleys (here: catch-up capacity against the cost of leading); restarting
        // from the best point with a fresh simplex is the usual remedy. Stop when a restart gains nothing.
        while (evaluations[0] < maxEvaluations) {
            double before = bestScore[0];
            from = nelderMead(parameters, aims, from, maxEvaluations, evaluations, bestScore, progress);
            if (before - bestScore[0] < 1e-4) {
                break;
            }
        }
        Map<ModelKey, Double> current = values(parameters, from);
        int evaluationsMade = evaluations[0];
        Map<String, Map<Quantity, Double>> finalFigures = modelled(current);
        return new FitResult(
                parameters,
                current,
                fitted,
                targets(),
                finalFigures,
                objective(aims, finalFigures),
                evaluationsMade,
                seeds(),
                setups);
    }

    private double[] coordinateSearch(
            List<FitParameter> parameters,
            List<Target> aims,
            double[] from,
            int budget,
            int[] evaluations,
            double[] bestScore,
            Consumer<String> progress) {
        double[] x = from.clone();
        double best = objective(aims, modelled(values(parameters, x)));
        evaluations[0]++;
        bestScore[0] = Math.min(bestScore[0], best);
        double step = Math.log(4);
        while (evaluations[0] < budget && step > Math.log(1.02)) {
            boolean improved = false;
            for (int j = 0; j < x.length && evaluations[0] < budget; j++) {
                double base = x[j];
                double chosen = base;
                for (int k = -2; k <= 2; k++) {
                    if (k == 0) {
                        continue;
                    }
                    double[] trial = x.clone();
                    trial[j] = base + k * step;
                    clampLog(parameters, trial);
                    if (trial[j] == base) {
                        continue;
                    }
                    double obj = objective(aims, modelled(values(parameters, trial)));
                    evaluations[0]++;
                    if (obj < best - 1e-9) {
                        best = obj;
                        chosen = trial[j];
                    }
                }
                if (chosen != base) {
                    x[j] = chosen;
                    improved = true;
                    bestScore[0] = Math.min(bestScore[0], best);
                    progress.accept(String.format(
                            Locale.ROOT,
                            "evaluation %d: objective %.4f at %s",
                            evaluations[0],
                            best,
                            describe(parameters, x)));
                }
            }
            if (!improved) {
                step /= 2;
            }
        }
        return x;
    }

    private double[] nelderMead(
            List<FitParameter> parameters,
            List<Target> aims,
            double[] from,
            int maxEvaluations,
            int[] evaluations,
            double[] bestScore,
            Consumer<String> progress) {
        int n = parameters.size();
        double[][] simplex = new double[n + 1][n];
        double[] score = new double[n + 1];
        for (int i = 0; i <= n; i++) {
            for (int j = 0; j < n; j++) {
                simplex[i][j] = from[j] + (i == j + 1 ? Math.log(2) : 0);
            }
        }
        ToDoubleFunction<double[]> f = x -> {
            evaluations[0]++;
            double obj = objective(aims, modelled(values(parameters, x)));
            if (obj < bestScore[0]) {
                bestScore[0] = obj;
                progress.accept(String.format(
                        Locale.ROOT,
                        "evaluation %d: objective %.4f at %s",
                        evaluations[0],
                        obj,
                        describe(parameters, x)));
            }
            return obj;
        };
        for (int i = 0; i <= n; i++) {
            clampLog(parameters, simplex[i]);
            score[i] = f.applyAsDouble(simplex[i]);
        }
        while (evaluations[0] < maxEvaluations) {
            Integer[] order = new Integer[n + 1];
            for (int i = 0; i <= n; i++) {
                order[i] = i;
            }
            Arrays.sort(order, Comparator.comparingDouble(i -> score[i]));
            double[][] sorted = new double[n + 1][];
            double[] sortedScore = new double[n + 1];
            for (int i = 0; i <= n; i++) {
                sorted[i] = simplex[order[i]];
                sortedScore[i] = score[order[i]];
            }
            System.arraycopy(sorted, 0, simplex, 0, n + 1);
            System.arraycopy(sortedScore, 0, score, 0, n + 1);
            if (score[n] - score[0] < 1e-6) {
                break;
            }
            double[] centroid = new double[n];
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < n; j++) {
                    centroid[j] += simplex[i][j] / n;
                }
            }
            double[] reflected = along(centroid, simplex[n], -1, parameters);
            double fr = f.applyAsDouble(reflected);
            if (fr < score[0]) {
                double[] expanded = along(centroid, simplex[n], -2, parameters);
                double fe = f.applyAsDouble(expanded);
                replaceWorst(simplex, score, fe < fr ? expanded : reflected, Math.min(fe, fr));
            } else if (fr < score[n - 1]) {
                replaceWorst(simplex, score, reflected, fr);
            } else {
                double[] contracted = fr < score[n]
                        ? along(centroid, simplex[n], -0.5, parameters)
                        : along(centroid, simplex[n], 0.5, parameters);
                double fc = f.applyAsDouble(contracted);
                if (fc < Math.min(fr, score[n])) {
                    replaceWorst(simplex, score, contracted, fc);
                } else {
                    for (int i = 1; i <= n; i++) {
                        for (int j = 0; j < n; j++) {
                            simplex[i][j] = simplex[0][j] + 0.5 * (simplex[i][j] - simplex[0][j]);
                        }
                        score[i] = f.applyAsDouble(simplex[i]);
                    }
                }
            }
        }
        int bestIndex = 0;
        for (int i = 1; i <= n; i++) {
            if (score[i] < score[bestIndex]) {
                bestIndex = i;
            }
        }
        return simplex[bestIndex];
    }

    /** centroid + t (worst - centroid), clamped: t = -1 reflects, -2 expands, +-0.5 contracts. */
    private static double[] along(double[] centroid, double[] worst, double t, List<FitParameter> parameters) {
        double[] x = new double[centroid.length];
        for (int j = 0; j < x.length; j++) {
            x[j] = centroid[j] + t * (worst[j] - centroid[j]);
        }
        clampLog(parameters, x);
        return x;
    }

    private static void replaceWorst(double[][] simplex, double[] score, double[] x, double fx) {
        simplex[simplex.length - 1] = x;
        score[score.length - 1] = fx;
    }

    private static void clampLog(List<FitParameter> parameters, double[] x) {
        for (int j = 0; j < x.length; j++) {
            FitParameter p = parameters.get(j);
            x[j] = Math.max(Math.log(p.min()), Math.min(Math.log(p.max()), x[j]));
        }
    }

    private static Map<ModelKey, Double> values(List<FitParameter> parameters, double[] logs) {
        Map<ModelKey, Double> out = new EnumMap<>(ModelKey.class);
        for (int j = 0; j < logs.length; j++) {
            out.put(parameters.get(j).key(), Math.exp(logs[j]));
        }
        return out;
    }

    private static String describe(List<FitParameter> parameters, double[] logs) {
        StringBuilder sb = new StringBuilder();
        for (int j = 0; j < logs.length; j++) {
            sb.append(j == 0 ? "" : ", ")
                    .append(parameters.get(j).key().key())
                    .append('=')
                    .append(String.format(Locale.ROOT, "%.4g", Math.exp(logs[j])));
        }
        return sb.toString();
    }
}
