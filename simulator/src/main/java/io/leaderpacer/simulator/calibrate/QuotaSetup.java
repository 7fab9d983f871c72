package io.leaderpacer.simulator.calibrate;

import io.leaderpacer.simulator.scenario.ModelKey;
import io.leaderpacer.simulator.scenario.Scenario;
import io.leaderpacer.simulator.scenario.ScenarioEvent;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The measured rounds run at one CPU quota of the restarted broker, and the template set up as they ran: their
 * downtime, restart-to-unfencing, window and quota. A calibration on runs at several quotas models each quota's
 * rounds in its own setup, so that a fit on two quotas is a fit of how the model scales with cores, and a run at a
 * third is a prediction of it.
 *
 * @param quota    the quota as the targets name it: {@code 0.5 core}, {@code 1 core}, {@code uncapped}
 * @param scenario the template with the measured settings, before any fitted value
 * @param targets  the rounds' targets; their policy is {@code policy @ quota} when the calibration has several setups
 * @param seeds    seeds per evaluation: the most rounds of one policy at this quota
 */
public record QuotaSetup(String quota, Scenario scenario, List<Target> targets, int seeds) {

    /** Joins a measured policy and its setup's quota in a target's name when a calibration has several setups. */
    static final String AT = " @ ";

    public QuotaSetup {
        targets = List.copyOf(targets);
    }

    /**
     * One setup per quota the rounds ran at, the lowest first and the uncapped last; with one quota, its targets keep
     * the measured policies' names.
     */
    static List<QuotaSetup> of(Scenario template, List<MeasuredRound> rounds) {
        Map<Double, List<MeasuredRound>> byCores = new TreeMap<>(Comparator.comparingDouble(QuotaSetup::orderOf));
        for (MeasuredRound r : rounds) {
            byCores.computeIfAbsent(r.capCores(), k -> new ArrayList<>()).add(r);
        }
        boolean several = byCores.size() > 1;
        List<QuotaSetup> out = new ArrayList<>();
        byCores.forEach((cores, group) -> {
            String quota = quotaName(cores);
            List<Target> targets = targets(group).stream()
                    .map(t -> several ? renamed(t, t.policy() + AT + quota) : t)
                    .toList();
            out.add(new QuotaSetup(quota, measuredSetup(template, group), targets, seeds(group)));
        });
        return out;
    }

    /** The name a measured policy's figures have in this setup's targets. */
    String key(String policy, boolean several) {
        return several ? policy + AT + quota : policy;
    }

    /** The uncapped (NaN) after every quota. */
    private static double orderOf(double cores) {
        return Double.isFinite(cores) ? cores : Double.MAX_VALUE;
    }

    static String quotaName(double cores) {
        return Double.isFinite(cores)
                ? BigDecimal.valueOf(cores).stripTrailingZeros().toPlainString() + " core"
                : "uncapped";
    }

    private static Target renamed(Target t, String policy) {
        return new Target(policy, t.quantity(), t.median(), t.min(), t.max(), t.rounds());
    }

    private static int seeds(List<MeasuredRound> rounds) {
        Map<String, Integer> perPolicy = new TreeMap<>();
        rounds.forEach(r -> perPolicy.merge(r.policy(), 1, Integer::sum));
        return perPolicy.values().stream().mapToInt(Integer::intValue).max().orElse(1);
    }

    /**
     * The template with what rounds at one quota measured directly: downtime, restart-to-unfencing and window (their
     * medians), and the quota (uncapped rounds leave the template's: the cores the machine gave the broker, which
     * the run does not record).
     */
    static Scenario measuredSetup(Scenario template, List<MeasuredRound> rounds) {
        double down = ModelledFigures.median(
                rounds.stream().mapToDouble(m -> m.timeline().downSeconds()).toArray());
        double unfence = ModelledFigures.median(
                rounds.stream().mapToDouble(m -> m.timeline().unfenceSeconds()).toArray());
        double window = ModelledFigures.median(
                rounds.stream().mapToDouble(m -> m.timeline().windowSeconds()).toArray());
        List<ScenarioEvent> events = new ArrayList<>();
        for (ScenarioEvent e : template.events()) {
            if (e instanceof ScenarioEvent.Restart r && Double.isFinite(down)) {
                events.add(new ScenarioEvent.Restart(
                        r.atMs(),
                        r.broker(),
                        Math.round(down * 10) * 100,
                        r.diskReplaced(),
                        r.crash(),
                        r.stuckPartitions()));
            } else {
                events.add(e);
            }
        }
        Map<ModelKey, Double> measured = new EnumMap<>(ModelKey.class);
        if (Double.isFinite(unfence)) {
            measured.put(ModelKey.UNFENCE_DELAY_MS, Math.rint(unfence * 10) * 100);
        }
        if (Double.isFinite(window)) {
            measured.put(ModelKey.RECOVERY_WINDOW_SECONDS, window);
        }
        double cores = rounds.isEmpty() ? Double.NaN : rounds.get(0).capCores();
        if (Double.isFinite(cores)) {
            measured.put(ModelKey.RESTARTED_BROKER_CORES, cores);
        }
        return template.withEvents(events).withModel(template.model().with(measured));
    }

    /**
     * Per policy and quantity, the median and spread over the rounds that have a value; for a quantity settled before
     * the policy acts ({@link Quantity#beforeThePolicyActs()}), over the rounds of every policy; for a
     * {@link Quantity#ratio()}, the policy's median numerator over the median denominator of every round (the spread:
     * the policy's smallest and largest numerator over that same denominator).
     */
    static List<Target> targets(List<MeasuredRound> rounds) {
        Map<String, List<MeasuredRound>> byPolicy = new LinkedHashMap<>();
        for (MeasuredRound r : rounds) {
            byPolicy.computeIfAbsent(r.policy(), k -> new ArrayList<>()).add(r);
        }
        List<Target> out = new ArrayList<>();
        byPolicy.forEach((policy, list) -> {
            for (Quantity q : Quantity.values()) {
                List<MeasuredRound> sample = q.beforeThePolicyActs() ? rounds : list;
                double[] v = sample.stream()
                        .mapToDouble(q::measured)
                        .filter(Double::isFinite)
                        .sorted()
                        .toArray();
                double scale = 1;
                if (q.ratio()) {
                    double[] d = rounds.stream()
                            .mapToDouble(q::measuredDenominator)
                            .filter(Double::isFinite)
                            .toArray();
                    scale = d.length * 2 >= rounds.size() ? ModelledFigures.median(d) : Double.NaN;
                }
                if (v.length * 2 >= sample.size() && v.length > 0 && scale > 0) {
                    out.add(new Target(
                            policy,
                            q,
                            ModelledFigures.median(v) / scale,
                            v[0] / scale,
                            v[v.length - 1] / scale,
                            v.length));
                }
            }
        });
        return out;
    }
}
