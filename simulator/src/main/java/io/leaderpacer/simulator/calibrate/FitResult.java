package io.leaderpacer.simulator.calibrate;

import io.leaderpacer.simulator.scenario.ModelKey;

import java.util.List;
import java.util.Map;

/**
 * What a fit found: the fitted values, the targets, the model's figures with those values, and how far off each is.
 *
 * @param parameters  the free parameters and their bounds
 * @param values      fitted value per parameter
 * @param fitted      the quantities the objective used
 * @param targets     every measured target (also those not fitted, for the report)
 * @param modelled    per policy and quantity, the model's median over the seeds
 * @param objective   sum of squared log residuals over the fitted targets
 * @param evaluations model evaluations the search made
 * @param seeds       seeds per evaluation (the rounds per policy)
 * @param setups      the calibration's setups (one per CPU quota), with the measured settings, before the fitted
 *                    values
 */
public record FitResult(
        List<FitParameter> parameters,
        Map<ModelKey, Double> values,
        List<Quantity> fitted,
        List<Target> targets,
        Map<String, Map<Quantity, Double>> modelled,
        double objective,
        int evaluations,
        int seeds,
        List<QuotaSetup> setups) {

    public FitResult {
        parameters = List.copyOf(parameters);
        values = Map.copyOf(values);
        fitted = List.copyOf(fitted);
        targets = List.copyOf(targets);
        modelled = Map.copyOf(modelled);
        setups = List.copyOf(setups);
    }

    /** The model's value for a target, NaN if none. */
    public double modelled(Target t) {
        Double v = modelled.getOrDefault(t.policy(), Map.of()).get(t.quantity());
        return v == null ? Double.NaN : v;
    }

    /** modelled / measured - 1; NaN when the model has no value. */
    public double relativeError(Target t) {
        return modelled(t) / t.median() - 1;
    }
}
