package io.leaderpacer.simulator.calibrate;

import io.leaderpacer.simulator.run.PolicyOutcome;
import io.leaderpacer.simulator.run.ProgressListener;
import io.leaderpacer.simulator.run.Simulation;
import io.leaderpacer.simulator.scenario.PolicySpec;
import io.leaderpacer.simulator.scenario.Scenario;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The model's side of the comparison: each measured policy run on the calibration scenario from as many seeds as the
 * load test had rounds (seed, seed + 1, ...), and the median of each quantity over them, as the load test reports
 * the median over its rounds. Different seeds draw different backlog spreads and periodic-task phases, as the
 * rounds had.
 */
public final class ModelledFigures {

    private ModelledFigures() {}

    /**
     * @param policies load-test policy name to the scenario policy that models it
     * @return per load-test policy, per quantity, the median over the seeds (NaN where the model has no value)
     */
    public static Map<String, Map<Quantity, Double>> of(
            Scenario scenario, Map<String, PolicySpec> policies, long seed, int seeds) {
        Map<String, Map<Quantity, Double>> out = new LinkedHashMap<>();
        for (Map.Entry<String, PolicySpec> e : policies.entrySet()) {
            List<PolicyOutcome> runs = new ArrayList<>();
            for (int i = 0; i < seeds; i++) {
                runs.add(new Simulation(scenario, e.getValue(), seed + i, ProgressListener.NONE).run());
            }
            Map<Quantity, Double> figures = new LinkedHashMap<>();
            for (Quantity q : Quantity.values()) {
                double[] v = runs.stream().mapToDouble(q::modelled).toArray();
                figures.put(q, median(v));
            }
            out.put(e.getKey(), figures);
        }
        return out;
    }

    /** Median of the finite values; NaN when more than half are missing (the model mostly has no such value). */
    static double median(double[] values) {
        double[] finite =
                Arrays.stream(values).filter(Double::isFinite).sorted().toArray();
        if (finite.length == 0 || finite.length * 2 < values.length) {
            return Double.NaN;
        }
        int n = finite.length;
        return n % 2 == 1 ? finite[n / 2] : (finite[n / 2 - 1] + finite[n / 2]) / 2;
    }
}
