package io.leaderpacer.simulator.run;

import io.leaderpacer.simulator.scenario.ModelKey;
import io.leaderpacer.simulator.scenario.Scenario;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which conclusions turn on which constant: the scenario rerun with each model constant at x0.5 and x2 (clamped to
 * its range), and every policy's verdicts compared with the unchanged simulation. A conclusion no single factor of two
 * flips is robust in the model; one that flips names the constant to measure.
 */
public final class Sensitivity {

    /** Not physics: time steps, windows and the recovery criterion are how results are read, not what happens. */
    static final Set<ModelKey> SKIPPED = EnumSet.of(
            ModelKey.TICK_MS,
            ModelKey.BUCKET_SECONDS,
            ModelKey.RECOVERY_WINDOW_SECONDS,
            ModelKey.RECOVERY_WINDOW_TAIL_SECONDS,
            ModelKey.RECOVERED_FRACTION);

    /** One changed constant and the verdicts that flipped. */
    public record Row(
            ModelKey key,
            double factor,
            double value,
            List<String> flips,
            double baselineRatio,
            double maxRatioChange) {}

    private Sensitivity() {}

    /**
     * @param factors the multipliers, e.g. 0.5 and 2
     * @return the unchanged result and one row per constant and factor (a value already at a bound is skipped)
     */
    public static List<Row> run(Scenario scenario, long seed, double[] factors, ProgressListener progress) {
        ScenarioRunner runner = new ScenarioRunner(ProgressListener.NONE);
        ScenarioResult base = runner.run(scenario, seed);
        List<Row> rows = new ArrayList<>();
        ModelKey[] keys = ModelKey.values();
        int done = 0;
        for (ModelKey k : keys) {
            done++;
            if (SKIPPED.contains(k)) {
                continue;
            }
            double v = scenario.model().get(k);
            for (double f : factors) {
                double changed = Math.max(k.min(), Math.min(k.max(), v * f));
                if (changed == v) {
                    continue;
                }
                ScenarioResult r =
                        runner.run(scenario.withModel(scenario.model().with(Map.of(k, changed))), seed);
                List<String> flips = new ArrayList<>();
                double maxChange = 0;
                for (PolicyOutcome o : base.outcomes()) {
                    KipAcceptance a = base.acceptance(o);
                    KipAcceptance b = r.acceptance(o.policy().name());
                    String n = o.policy().name();
                    if (a.p99Ok() != b.p99Ok()) {
                        flips.add(n + " P99 " + word(a.p99Ok()) + "->" + word(b.p99Ok()));
                    }
                    if (a.timeoutsOk() != b.timeoutsOk()) {
                        flips.add(n + " time-outs " + word(a.timeoutsOk()) + "->" + word(b.timeoutsOk()));
                    }
                    if (a.recoveryOk() != b.recoveryOk()) {
                        flips.add(n + " recovery " + word(a.recoveryOk()) + "->" + word(b.recoveryOk()));
                    }
                    if (Double.isFinite(a.p99Ratio()) && Double.isFinite(b.p99Ratio()) && a.p99Ratio() > 0) {
                        maxChange = Math.max(maxChange, Math.abs(Math.log(b.p99Ratio() / a.p99Ratio())));
                    }
                }
                rows.add(new Row(k, f, changed, flips, r.baseline().kip().p99Ratio(), Math.exp(maxChange)));
            }
            progress.progress("sensitivity", (double) done / keys.length);
        }
        return rows;
    }

    private static String word(boolean ok) {
        return ok ? "pass" : "FAIL";
    }
}
