package io.leaderpacer.simulator.calibrate;

import io.leaderpacer.simulator.scenario.ModelKey;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * The fit as Markdown: each free parameter with its bounds, start and fitted value; each target with the measured
 * median and spread, the modelled median and the residual; which targets are within 25 %.
 */
public final class FitReport {

    /** The acceptance band the calibration test uses. */
    public static final double TOLERANCE = 0.25;

    private FitReport() {}

    /** {@code catchUp}: the catch-up the runs measured in bytes ({@link MeasuredCatchUp}), empty where they have none. */
    public static String markdown(
            FitResult fit, List<String> runs, String command, List<MeasuredCatchUp.Round> catchUp, boolean fitted) {
        StringBuilder sb = new StringBuilder();
        sb.append(
                fitted
                        ? "# Calibration fit (modelled against measured)\n\n"
                        : "# Model against measured, no fit (out of sample: nothing below was fitted on these runs)\n\n");
        sb.append("Command: `").append(command).append("`\n\n");
        sb.append("Measured load tests: ")
                .append(String.join(", ", runs.stream().map(r -> "`" + r + "`").toList()))
                .append(". The model runs each measured policy from ")
                .append(fit.seeds())
                .append(
                        " seeds (as many as the rounds) and takes the median, as the load test takes the median of its rounds.")
                .append(" Objective: sum of squared ln(modelled / measured) over the fitted targets, ")
                .append(String.format(
                        Locale.ROOT,
                        fitted ? "%.4f after %d model evaluations.%n%n" : "%.4f (%d evaluation, nothing fitted).%n%n",
                        fit.objective(),
                        fit.evaluations()));
        setFromMeasurement(sb, fit);
        fittedParameters(sb, fit, fitted);
        residuals(sb, fit, fitted);
        if (!catchUp.isEmpty()) {
            catchUpInBytes(sb, catchUp);
        }
        sb.append("\nFigures settled before the policy acts (");
        sb.append(String.join(
                ", ",
                Arrays.stream(Quantity.values())
                        .filter(Quantity::beforeThePolicyActs)
                        .map(Quantity::label)
                        .toList()));
        sb.append(") are measured over the rounds of every policy: no election can reach the restarted broker before")
                .append(" its first ISR re-entry, and the steady phase ends before it stops.\n");
        return sb.toString();
    }

    /** The parameters the measurement sets directly, per setup: downtime, unfencing delay, window, quota. */
    private static void setFromMeasurement(StringBuilder sb, FitResult fit) {
        List<QuotaSetup> setups = fit.setups();
        sb.append("## Set from the measurement (not fitted)\n\n");
        if (setups.size() > 1) {
            sb.append("One setup per CPU quota of the runs; each quota's rounds are modelled in its own.\n\n");
        }
        sb.append("| parameter |");
        setups.forEach(q -> sb.append(setups.size() > 1 ? " " + q.quota() + " |" : " value |"));
        sb.append(" from |\n|---|").append("---:|".repeat(setups.size())).append("---|\n");
        row(
                sb,
                "restart `down`",
                setups,
                q -> String.format(Locale.ROOT, "%.1f s", downSeconds(q)),
                "median of restarted_at_s - stopped_at_s");
        row(
                sb,
                "`unfenceDelayMs`",
                setups,
                q -> String.format(Locale.ROOT, "%.0f ms", model(q, ModelKey.UNFENCE_DELAY_MS)),
                "median of unfenced_at_s - restarted_at_s");
        row(
                sb,
                "`recoveryWindowSeconds`",
                setups,
                q -> String.format(Locale.ROOT, "%.0f s", model(q, ModelKey.RECOVERY_WINDOW_SECONDS)),
                "the load test's window_s");
        row(
                sb,
                "`restartedBrokerCores`",
                setups,
                q -> num(model(q, ModelKey.RESTARTED_BROKER_CORES)) + " cores",
                "cap_cores (uncapped: the template's; 0 = as calibrated, `calibratedCores` "
                        + num(model(setups.get(0), ModelKey.CALIBRATED_CORES)) + ")");
        sb.append('\n');
    }

    private static void row(
            StringBuilder sb, String name, List<QuotaSetup> setups, Function<QuotaSetup, String> value, String from) {
        sb.append("| ").append(name).append(" |");
        setups.forEach(q -> sb.append(' ').append(value.apply(q)).append(" |"));
        sb.append(' ').append(from).append(" |\n");
    }

    private static double downSeconds(QuotaSetup q) {
        return q.scenario().restarts().get(0).downMs() / 1000.0;
    }

    private static double model(QuotaSetup q, ModelKey key) {
        return q.scenario().model().get(key);
    }

    /** Each fitted parameter with its start, bounds and the measured effect that carries it. */
    private static void fittedParameters(StringBuilder sb, FitResult fit, boolean fitted) {
        sb.append(
                fitted
                        ? "## Fitted parameters\n\n"
                        : "## Model parameters (the start model's, not fitted on these runs)\n\n");
        sb.append("| parameter | fitted | start | bounds | unit | carried by |\n|---|---:|---:|---|---|---|\n");
        for (FitParameter p : fit.parameters()) {
            sb.append(String.format(
                    Locale.ROOT,
                    "| `%s` | %s | %s | %s-%s | %s | %s |%n",
                    p.key().key(),
                    num(fit.values().get(p.key())),
                    num(p.start()),
                    num(p.min()),
                    num(p.max()),
                    p.key().unit(),
                    p.why()));
        }
    }

    /** Every target: measured median and range against modelled, the residual, and whether it was fitted on. */
    private static void residuals(StringBuilder sb, FitResult fit, boolean fitted) {
        sb.append("\n## Residuals\n\n");
        sb.append("| policy | quantity | measured median (range) | modelled | residual | within 25 % | "
                + (fitted ? "fitted on" : "a fit's target") + " |\n");
        sb.append("|---|---|---:|---:|---:|---|---|\n");
        for (Target t : fit.targets()) {
            double m = fit.modelled(t);
            double err = fit.relativeError(t);
            sb.append(String.format(
                    Locale.ROOT,
                    "| %s | %s | %s %s (%s-%s) | %s | %s | %s | %s |%n",
                    t.policy(),
                    t.quantity().label(),
                    num(t.median()),
                    t.quantity().unit(),
                    num(t.min()),
                    num(t.max()),
                    num(m),
                    Double.isFinite(err) ? String.format(Locale.ROOT, "%+.0f %%", 100 * err) : "none",
                    Double.isFinite(err) && Math.abs(err) <= TOLERANCE ? "yes" : "**no**",
                    fit.fitted().contains(t.quantity()) ? "yes" : "no"));
        }
        if (fit.targets().stream().anyMatch(t -> t.quantity().diagnostic())) {
            sb.append(
                            "\nThe rows by the restarted broker's role (every partition by what the restarted broker was to it")
                    .append(
                            " at each moment, as the load test splits its sends): the in-sync follower and not-in-ISR rows")
                    .append(
                            " are not fitted on, they say which role the model's class figures come from; the leader row")
                    .append(" is, as what identifies the cost of a leadership move.\n");
        }
        if (fit.targets().stream().anyMatch(t -> t.quantity() == Quantity.CATCH_UP_CORES)) {
            sb.append("\nCPU in catch-up: the restarted broker's mean CPU use from its unfencing to its")
                    .append(" last ISR re-entry; modelled, the busier of its CPU-bound resources times")
                    .append(" `restartedBrokerCores` (the machine's cores where the run was uncapped).\n");
        }
    }

    /** The catch-up the runs measured in bytes, per round, by how much the broker led (not fitted). */
    private static void catchUpInBytes(StringBuilder sb, List<MeasuredCatchUp.Round> catchUp) {
        sb.append("\n## Catch-up measured in bytes (not fitted)\n\n");
        sb.append(
                        "From `partitions.csv` (`hosted_bytes`, `bytes_behind`: the restarted broker's replica bytes and what")
                .append(" the leaders it follows hold beyond it, every 0.5 s). Done: at most 1 % of what was behind at")
                .append(" unfencing is left; rate: replica bytes gained per second until then (MB = 10^6 bytes), and")
                .append(
                        " the same rate over the sampling intervals that began with the broker leading none, fewer than")
                .append(String.format(Locale.ROOT, " %.0f %%", MeasuredCatchUp.RateByLeading.MANY * 100))
                .append(" or at least that share of its preferred partitions.\n\n");
        sb.append("| policy | round | behind at the first look after the restart | behind at unfencing | done after")
                .append(" unfencing | catch-up rate | leading none | leading few | leading many |\n")
                .append("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (MeasuredCatchUp.Round r : catchUp) {
            MeasuredCatchUp.RateByLeading l = r.byLeading();
            sb.append(String.format(
                    Locale.ROOT,
                    "| %s | %d | %s MiB | %s MiB | %s s | %s MB/s | %s | %s | %s |%n",
                    r.policy(),
                    r.round(),
                    num(r.behindAtFirstLookMiB()),
                    num(r.behindAtUnfenceMiB()),
                    num(r.doneSeconds()),
                    num(r.meanMBps()),
                    num(l.noneMBps()),
                    num(l.fewMBps()),
                    num(l.manyMBps())));
        }
    }

    static String num(double v) {
        if (!Double.isFinite(v)) {
            return "-";
        }
        if (v == Math.rint(v) && Math.abs(v) < 1e7) {
            return String.format(Locale.ROOT, "%.0f", v);
        }
        double a = Math.abs(v);
        return String.format(Locale.ROOT, a >= 100 ? "%.1f" : a >= 1 ? "%.2f" : "%.3g", v);
    }
}
