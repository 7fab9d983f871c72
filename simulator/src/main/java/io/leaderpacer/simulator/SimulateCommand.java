package io.leaderpacer.simulator;

import io.leaderpacer.report.AtomicFiles;
import io.leaderpacer.report.text.ByteSize;
import io.leaderpacer.report.text.DurationText;
import io.leaderpacer.simulator.controller.InvariantViolation;
import io.leaderpacer.simulator.report.CsvWriter;
import io.leaderpacer.simulator.report.Frontier;
import io.leaderpacer.simulator.report.ScenarioPage;
import io.leaderpacer.simulator.report.SimulationFiles;
import io.leaderpacer.simulator.report.SimulationTable;
import io.leaderpacer.simulator.report.SummaryMerge;
import io.leaderpacer.simulator.report.SummaryRow;
import io.leaderpacer.simulator.run.ProgressListener;
import io.leaderpacer.simulator.run.ScenarioResult;
import io.leaderpacer.simulator.run.ScenarioRunner;
import io.leaderpacer.simulator.run.Sensitivity;
import io.leaderpacer.simulator.scenario.ModelKey;
import io.leaderpacer.simulator.scenario.PolicySpec;
import io.leaderpacer.simulator.scenario.PolicyText;
import io.leaderpacer.simulator.scenario.Scenario;
import io.leaderpacer.simulator.scenario.ScenarioException;
import io.leaderpacer.simulator.scenario.ScenarioLoader;
import io.leaderpacer.simulator.scenario.StandardPolicies;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Stream;

/**
 * {@code pacer simulate}: runs scenario files and compares the policies on them.
 *
 * <p>Every file is loaded and checked before anything runs, so a typo in the fifth file does not
 * surface after four long simulations. Results go to the terminal (a table per scenario), and to
 * {@code --out}: a CSV time series and an HTML report per scenario and a summary CSV (merged with the one already
 * there, so that running scenarios one by one loses none), each written
 * whole or not at all.
 */
@Command(
        name = "simulate",
        mixinStandardHelpOptions = true,
        description = {
            "Simulate broker recovery on a modelled KRaft cluster and compare leadership policies.",
            "Prints the seed; the same scenario and seed give byte-identical results."
        })
public final class SimulateCommand implements Callable<Integer> {

    /** Exit code for a bad scenario file or option. */
    static final int BAD_INPUT = 2;
    /** Exit code for a simulation that broke an invariant. */
    static final int INVARIANT_BROKEN = 3;

    @Spec
    CommandSpec spec;

    @Parameters(arity = "0..*", paramLabel = "SCENARIO.yaml", description = "Scenario files to run.")
    List<Path> files = new ArrayList<>();

    @Option(names = "--all", description = "Run every *.yaml in --scenarios-dir, in name order.")
    boolean all;

    @Option(
            names = "--scenarios-dir",
            defaultValue = "scenarios",
            paramLabel = "DIR",
            description = "Where --all looks (default: ${DEFAULT-VALUE}).")
    Path scenariosDir;

    @Option(
            names = "--policy",
            split = ",",
            paramLabel = "NAME",
            description =
                    "Policies to simulate, NAME or NAME:key=value,... (immediate, the baseline, always runs:"
                            + " everything is compared with it; --list-policies lists the names). Default: the scenario's own list.")
    List<String> policies = new ArrayList<>();

    @Option(
            names = "--seed",
            paramLabel = "N",
            description = "Seed for every simulation (default: each scenario's own).")
    Long seed;

    @Option(
            names = "--out",
            defaultValue = "target/sim",
            paramLabel = "DIR",
            description = "Output directory (default: ${DEFAULT-VALUE}).")
    Path out;

    @Option(
            names = "--scale-down",
            defaultValue = "1",
            paramLabel = "K",
            description = "Divide every topic's partition count by K (quick looks; traffic unchanged).")
    int scaleDown;

    @Option(names = "--no-html", description = "Skip the HTML reports.")
    boolean noHtml;

    @Option(names = "--no-progress", description = "No progress bar on standard error.")
    boolean noProgress;

    @Option(names = "--markdown", description = "Print the result tables as Markdown (as in docs/SIMULATOR.md).")
    boolean markdown;

    @Option(
            names = "--window",
            paramLabel = "DURATION|until-recovery",
            description = "Window of the P99 ratio from the unfencing: a duration (KIP-1358's 10m is the default"
                    + " unless the scenario sets recoveryWindowSeconds) or until-recovery.")
    String window;

    @Option(
            names = "--frontier",
            description = "Also run " + Frontier.SWEPT_PRESET
                    + " with its catch-up held at each of --frontier-rates, and print"
                    + " each policy's P99 against its recovery, the ones no other beats marked: the trade-off to choose on"
                    + " before a restart.")
    boolean frontier;

    @Option(
            names = "--frontier-rates",
            split = ",",
            defaultValue = "8m,16m,32m,64m,128m",
            paramLabel = "SIZE",
            description = "--frontier: the static catch-up rates, per second (default: ${DEFAULT-VALUE}); each "
                    + ByteSize.HELP + ".")
    List<String> frontierRates = new ArrayList<>();

    @Option(
            names = "--sensitivity",
            paramLabel = "FILE",
            description =
                    "Rerun FILE with each model constant at x0.5 and x2 and print which verdicts flip (a tornado table).")
    Path sensitivity;

    @Option(
            names = "--list-policies",
            description =
                    "List the named policies (the one registry the load test and the" + " docs also use) and exit.")
    boolean listPolicies;

    @Option(
            names = "--calibrate",
            arity = "1..*",
            paramLabel = "LOADTEST_DIR",
            description = "Fit the model to pacer loadtest output directories (their rounds.csv); writes a scenario"
                    + " and a fit report to --out.")
    List<Path> calibrate = new ArrayList<>();

    @Option(
            names = "--calibration-template",
            defaultValue = "scenarios/calibration/loadtest-template.yaml",
            paramLabel = "FILE",
            description = "The load test's cluster and workload as a scenario (default: ${DEFAULT-VALUE}).")
    Path calibrationTemplate;

    @Option(
            names = "--calibration-name",
            defaultValue = "calibrated",
            paramLabel = "NAME",
            description = "Name of the calibrated scenario and its files (default: ${DEFAULT-VALUE}).")
    String calibrationName;

    @Option(
            names = "--calibration-start",
            paramLabel = "FILE",
            description = "--calibrate: start the search from this scenario's model values (e.g. the previous"
                    + " calibration) instead of the standard start.")
    Path calibrationStart;

    @Option(
            names = "--max-evaluations",
            defaultValue = "1000",
            paramLabel = "N",
            description = "--calibrate: model evaluations the fit may make (default: ${DEFAULT-VALUE}); 0: no fit,"
                    + " --calibration-start's model against the runs (out of sample).")
    int sweeps;

    /** Runs the command on its own, outside the {@code pacer} launcher. */
    public static void main(String[] args) {
        System.exit(new CommandLine(new SimulateCommand()).execute(args));
    }

    @Override
    public Integer call() throws IOException {
        PrintWriter stdout = spec.commandLine().getOut();
        PrintWriter stderr = spec.commandLine().getErr();
        if (listPolicies) {
            StandardPolicies.descriptions()
                    .forEach((name, description) -> stdout.printf("%-32s %s%n", name, description));
            return 0;
        }
        if (sensitivity != null) {
            return sensitivity(stdout, stderr);
        }
        if (!calibrate.isEmpty()) {
            return new CalibrateAction(calibrate, calibrationTemplate, calibrationStart, calibrationName, sweeps, out)
                    .run(stdout, stderr);
        }
        if (!frontier && spec.commandLine().getParseResult().hasMatchedOption("--frontier-rates")) {
            stderr.println("Error: --frontier-rates is read only with --frontier");
            return BAD_INPUT;
        }
        List<Scenario> scenarios;
        try {
            scenarios = load(stderr);
        } catch (ScenarioException e) {
            stderr.println("Error: " + e.getMessage());
            return BAD_INPUT;
        }
        if (scenarios.isEmpty()) {
            stderr.println("Error: no scenario given: name scenario files, or use --all");
            return BAD_INPUT;
        }
        ProgressListener progress = Progress.onStandardError(stderr, noProgress);
        ScenarioRunner runner = new ScenarioRunner(progress);
        List<ScenarioResult> results = new ArrayList<>();
        for (Scenario s : scenarios) {
            long seedUsed = seed != null ? seed : s.seed();
            stdout.printf(
                    "%nscenario %s (%s), seed %d; every figure below is modelled, not measured%n",
                    s.name(), s.source(), seedUsed);
            stdout.flush();
            ScenarioResult result;
            try {
                result = runner.run(s, seedUsed);
            } catch (InvariantViolation v) {
                stderr.println();
                stderr.println("Error: invariant broken: " + v.getMessage());
                return INVARIANT_BROKEN;
            }
            results.add(result);
            stdout.print(markdown ? SimulationTable.markdown(result) : SimulationTable.text(result));
            if (frontier) {
                stdout.print(Frontier.text(Frontier.of(result)));
            }
            stdout.flush();
            write(result, seedUsed);
        }
        writeSummary(stdout, CsvWriter.summaryRows(results));
        return 0;
    }

    private int sensitivity(PrintWriter stdout, PrintWriter stderr) {
        Scenario s;
        try {
            s = new ScenarioLoader().load(sensitivity);
            if (!policies.isEmpty()) {
                s = s.withPolicies(choose(s, policies));
            }
            if (scaleDown > 1) {
                s = s.scaledDown(scaleDown);
            }
        } catch (ScenarioException e) {
            stderr.println("Error: " + e.getMessage());
            return BAD_INPUT;
        }
        long seedUsed = seed != null ? seed : s.seed();
        stdout.printf(
                "sensitivity of %s (%s), seed %d: each model constant at x0.5 and x2 (modelled)%n",
                s.name(), s.source(), seedUsed);
        stdout.flush();
        List<Sensitivity.Row> rows;
        try {
            rows = Sensitivity.run(s, seedUsed, new double[] {0.5, 2.0}, Progress.onStandardError(stderr, noProgress));
        } catch (InvariantViolation v) {
            stderr.println("Error: invariant broken: " + v.getMessage());
            return INVARIANT_BROKEN;
        }
        rows = new ArrayList<>(rows);
        // Tornado order: most flips first, then the largest change of any policy's P99 ratio.
        rows.sort(Comparator.comparingInt((Sensitivity.Row r) -> -r.flips().size())
                .thenComparingDouble(r -> -r.maxRatioChange()));
        stdout.println();
        stdout.println("| constant | x | value | verdicts that flip | largest P99-ratio change |");
        stdout.println("|---|---:|---:|---|---:|");
        for (Sensitivity.Row r : rows) {
            stdout.printf(
                    Locale.ROOT,
                    "| `%s` | %s | %.4g | %s | x%.2f |%n",
                    r.key().key(),
                    r.factor() < 1 ? "0.5" : "2",
                    r.value(),
                    r.flips().isEmpty() ? "none" : String.join("; ", r.flips()),
                    r.maxRatioChange());
        }
        stdout.flush();
        return 0;
    }

    /** Merges this command's rows into the directory's summary; one of another format is kept aside, never lost. */
    private void writeSummary(PrintWriter stdout, List<SummaryRow> fresh) throws IOException {
        Path summary = out.resolve("summary.csv");
        List<SummaryRow> merged = fresh;
        if (Files.exists(summary)) {
            Optional<List<SummaryRow>> existing =
                    SummaryMerge.readIfCompatible(summary.toString(), Files.readString(summary));
            if (existing.isPresent()) {
                merged = SummaryMerge.merge(existing.get(), fresh);
            } else {
                Path aside = out.resolve("summary.previous.csv");
                Files.move(summary, aside, StandardCopyOption.REPLACE_EXISTING);
                stdout.printf("%nkept the earlier summary, in other columns, as %s%n", aside);
            }
        }
        SimulationFiles.SUMMARY.write(summary, merged);
        stdout.printf("%nwrote %s (earlier scenarios' rows kept; re-run ones replaced)%n", summary);
    }

    private List<Scenario> load(PrintWriter stderr) throws IOException {
        if (scaleDown < 1) {
            throw new ScenarioException("--scale-down", "", scaleDown + " must be 1 or more");
        }
        List<Path> paths = new ArrayList<>(files);
        if (all) {
            if (!Files.isDirectory(scenariosDir)) {
                throw new ScenarioException(scenariosDir.toString(), "", "--all: no such directory");
            }
            try (Stream<Path> list = Files.list(scenariosDir)) {
                list.filter(p -> p.getFileName().toString().endsWith(".yaml"))
                        .sorted()
                        .forEach(paths::add);
            }
        }
        ScenarioLoader loader = new ScenarioLoader();
        Double windowSeconds = windowSeconds();
        List<Scenario> out = new ArrayList<>();
        for (Path p : paths) {
            Scenario s = loader.load(p);
            if (windowSeconds != null) {
                s = s.withModel(s.model().with(Map.of(ModelKey.RECOVERY_WINDOW_SECONDS, windowSeconds)));
            }
            if (!policies.isEmpty()) {
                s = s.withPolicies(choose(s, policies));
            }
            if (frontier) {
                s = s.withPolicies(withRates(s));
            }
            out.add(scaleDown > 1 ? s.scaledDown(scaleDown) : s);
        }
        return out;
    }

    /** --window in seconds, 0 for until-recovery, null when not given. */
    private Double windowSeconds() {
        if (window == null) {
            return null;
        }
        if (window.strip().equals("until-recovery")) {
            return 0.0;
        }
        try {
            long ms = DurationText.parseMs(window);
            if (ms < 1000 || ms > 86_400_000L) {
                throw new ScenarioException("--window", "", window + " must be between 1s and 24h, or until-recovery");
            }
            return ms / 1000.0;
        } catch (IllegalArgumentException e) {
            throw new ScenarioException("--window", "", e.getMessage() + "; or write until-recovery");
        }
    }

    private static List<PolicySpec> choose(Scenario s, List<String> names) {
        List<PolicySpec> chosen = new ArrayList<>();
        chosen.add(StandardPolicies.named(StandardPolicies.BASELINE, s));
        Map<String, PolicySpec> own = new LinkedHashMap<>(s.defined());
        s.policies().forEach(p -> own.put(p.name(), p));
        for (String text : PolicyText.rejoin(names)) {
            String n = text.strip();
            PolicySpec p;
            try {
                p = own.containsKey(n)
                        ? own.get(n)
                        : PolicyText.resolve(n, own, StandardPolicies.preferredPerBroker(s));
            } catch (IllegalArgumentException e) {
                throw new ScenarioException("--policy", "", "for " + s.name() + ": " + e.getMessage());
            }
            if (p == null) {
                throw new ScenarioException(
                        "--policy",
                        "",
                        "for " + s.name() + ": " + StandardPolicies.unknown(PolicyText.name(n), own.keySet()));
            }
            if (chosen.stream().noneMatch(q -> q.name().equals(n))) {
                chosen.add(p);
            }
        }
        return chosen;
    }

    /** --frontier: the scenario's policies, then the swept preset at each static rate not among them already. */
    private List<PolicySpec> withRates(Scenario s) {
        List<PolicySpec> out = new ArrayList<>(s.policies());
        for (String text : frontierRates) {
            PolicySpec p;
            try {
                p = PolicyText.resolve(
                        Frontier.staticRatePolicy(ByteSize.parsePositive(text)),
                        Map.of(),
                        StandardPolicies.preferredPerBroker(s));
            } catch (IllegalArgumentException e) {
                throw new ScenarioException("--frontier-rates", "", text.strip() + ": " + e.getMessage());
            }
            if (out.stream().noneMatch(q -> q.name().equals(p.name()))) {
                out.add(p);
            }
        }
        return out;
    }

    private void write(ScenarioResult result, long seedUsed) throws IOException {
        String name = result.scenario().name();
        Path csv = out.resolve(name + ".csv");
        AtomicFiles.write(csv, CsvWriter.timeSeries(result));
        Path brokers = out.resolve(name + "-brokers.csv");
        AtomicFiles.write(brokers, CsvWriter.brokers(result));
        PrintWriter stdout = spec.commandLine().getOut();
        stdout.printf("wrote %s, %s", csv, brokers);
        if (!noHtml) {
            Path html = out.resolve(name + ".html");
            String command = "pacer simulate " + result.scenario().source() + " --seed " + seedUsed
                    + (scaleDown > 1 ? " --scale-down " + scaleDown : "");
            AtomicFiles.write(html, ScenarioPage.of(result, command).toHtml());
            stdout.printf(", %s", html);
        }
        stdout.println();
        stdout.flush();
    }
}
