package io.leaderpacer.simulator;

import io.leaderpacer.report.AtomicFiles;
import io.leaderpacer.simulator.calibrate.CalibratedScenario;
import io.leaderpacer.simulator.calibrate.Calibration;
import io.leaderpacer.simulator.calibrate.FitParameter;
import io.leaderpacer.simulator.calibrate.FitReport;
import io.leaderpacer.simulator.calibrate.FitResult;
import io.leaderpacer.simulator.calibrate.FreeParameters;
import io.leaderpacer.simulator.calibrate.LoadTestRuns;
import io.leaderpacer.simulator.calibrate.MeasuredCatchUp;
import io.leaderpacer.simulator.calibrate.MeasuredRound;
import io.leaderpacer.simulator.controller.InvariantViolation;
import io.leaderpacer.simulator.scenario.ModelParameters;
import io.leaderpacer.simulator.scenario.Scenario;
import io.leaderpacer.simulator.scenario.ScenarioException;
import io.leaderpacer.simulator.scenario.ScenarioLoader;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code pacer simulate --calibrate LOADTEST_DIR...}: reads the load tests and the template, fits, writes the calibrated scenario
 * and the fit report; with {@code --max-evaluations 0}, only the report of the start model against the runs
 * (predictions out of sample: nothing fitted). Bad input (a run directory without rounds.csv, a template that does not load, a measured
 * policy the template lacks) is one line naming what and where, exit code 2, nothing written.
 */
final class CalibrateAction {

    private final List<Path> runs;
    private final Path template;
    /** A scenario whose model values start the search (a refit from an earlier calibration), or null. */
    private final Path start;

    private final String name;
    private final int sweeps;
    private final Path out;

    CalibrateAction(List<Path> runs, Path template, Path start, String name, int sweeps, Path out) {
        this.runs = List.copyOf(runs);
        this.template = template;
        this.start = start;
        this.name = name;
        this.sweeps = sweeps;
        this.out = out;
    }

    int run(PrintWriter stdout, PrintWriter stderr) throws IOException {
        Calibration calibration;
        String templateText;
        List<FitParameter> parameters;
        List<MeasuredCatchUp.Round> catchUp;
        try {
            if (!name.matches("[A-Za-z0-9._-]+")) {
                throw new IllegalArgumentException(
                        "--calibration-name '" + name + "' may only contain letters, digits, '.', '_' and '-'");
            }
            if (sweeps < 0) {
                throw new IllegalArgumentException("--max-evaluations " + sweeps + " must be 0 or more");
            }
            if (sweeps == 0 && start == null) {
                throw new IllegalArgumentException("--max-evaluations 0 compares a model with the runs without"
                        + " fitting it: name the model with --calibration-start FILE");
            }
            Scenario t = new ScenarioLoader().load(template);
            templateText = Files.readString(template);
            List<MeasuredRound> rounds = LoadTestRuns.read(runs);
            calibration = Calibration.of(t, rounds);
            catchUp =
                    runs.stream().flatMap(r -> MeasuredCatchUp.read(r).stream()).toList();
            boolean paced = calibration.pacesCatchUp();
            if (start == null) {
                parameters = FreeParameters.forRuns(paced);
            } else {
                ModelParameters startModel = new ScenarioLoader().load(start).model();
                parameters = sweeps == 0
                        ? FreeParameters.asGiven(startModel, paced)
                        : FreeParameters.startingFrom(startModel, paced);
            }
        } catch (ScenarioException | IllegalArgumentException e) {
            stderr.println("Error: " + e.getMessage());
            return SimulateCommand.BAD_INPUT;
        }
        stdout.printf(
                "calibrating %s on %s: %d targets, %d seeds per evaluation (modelled against measured)%n",
                template, runs, calibration.targets().size(), calibration.seeds());
        stdout.flush();
        FitResult fit;
        try {
            fit = calibration.fit(parameters, FreeParameters.FITTED, sweeps, line -> {
                stdout.println("  " + line);
                stdout.flush();
            });
        } catch (InvariantViolation v) {
            stderr.println("Error: invariant broken: " + v.getMessage());
            return SimulateCommand.INVARIANT_BROKEN;
        }
        String runNames = String.join(
                ", ", runs.stream().map(p -> p.getFileName().toString()).toList());
        String command = "pacer simulate --calibrate "
                + String.join(" ", runs.stream().map(Path::toString).toList())
                + " --calibration-template " + template + (start == null ? "" : " --calibration-start " + start)
                + " --calibration-name " + name + " --max-evaluations " + sweeps;
        String report =
                FitReport.markdown(fit, runs.stream().map(Path::toString).toList(), command, catchUp, sweeps > 0);
        if (sweeps == 0) {
            Path reportFile = out.resolve(name + "-against-measured.md");
            AtomicFiles.write(reportFile, report);
            stdout.println();
            stdout.print(report);
            stdout.printf("%nwrote %s%n", reportFile);
            return 0;
        }
        Path scenario = out.resolve(name + ".yaml");
        Path reportFile = out.resolve(name + "-fit.md");
        AtomicFiles.write(
                scenario,
                CalibratedScenario.yaml(
                        templateText,
                        name,
                        fit,
                        "the measured load tests " + runNames,
                        reportFile.getFileName().toString()));
        AtomicFiles.write(reportFile, report);
        stdout.println();
        stdout.print(report);
        stdout.printf("%nwrote %s, %s%n", scenario, reportFile);
        return 0;
    }
}
