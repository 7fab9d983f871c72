package io.leaderpacer.simulator;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

class SimulateCommandTest {

    private static final String SMALL = String.join(
            "\n",
            "name: small",
            "seed: 99",
            "cluster: {brokers: 3}",
            "topics: [{name: t, partitions: 60, produceMBps: 60}]",
            "timeline:",
            "  end: 30m",
            "  events:",
            "    - {at: 5m, restart: {broker: 0, down: 3m}}",
            "policies: [kip-example]",
            "");

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cmd = new CommandLine(new SimulateCommand());
        cmd.setOut(new PrintWriter(out, true));
        cmd.setErr(new PrintWriter(err, true));
        return cmd.execute(args);
    }

    @Test
    void scenarioFile_printsSeedAndTable_andWritesCsvHtmlSummary(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("small.yaml");
        Files.writeString(file, SMALL);
        Path outDir = dir.resolve("out");
        int code = run(file.toString(), "--out", outDir.toString(), "--no-progress");
        assertThat(code).as(err.toString()).isZero();
        assertThat(out.toString())
                .contains("seed 99")
                .contains("immediate")
                .contains("kip-example")
                .contains("verdict");
        assertThat(Files.readString(outDir.resolve("small.csv"))).startsWith("scenario,policy,seed,time_s,p99_ms");
        assertThat(Files.readString(outDir.resolve("small.html")))
                .contains("uPlot")
                .contains("Leaders on broker 0");
        assertThat(Files.readString(outDir.resolve("summary.csv"))).contains("small,kip-example,99,");
        try (Stream<Path> files = Files.list(outDir)) {
            assertThat(files.map(p -> p.getFileName().toString()))
                    .containsExactlyInAnyOrder("small.csv", "small.html", "small-brokers.csv", "summary.csv");
        }
        assertThat(out.toString())
                .contains("modelled")
                .contains("protected P99 ratio")
                .contains("vs physical limit");
        assertThat(Files.readString(outDir.resolve("small-brokers.csv")))
                .startsWith("scenario,policy,seed,broker,steady_p99_ms,window_p99_ms,p99_ratio\n")
                .contains("small,immediate,99,0,")
                .contains("small,kip-example,99,protected,");
        assertThat(Files.readString(outDir.resolve("small.html")))
                .contains("(modelled)")
                .contains("gate release")
                .contains("P99 of the protected partitions");
    }

    @Test
    void badWindow_isABadInputNamingTheOption(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("small.yaml");
        Files.writeString(file, SMALL);
        assertThat(run(file.toString(), "--out", dir.toString(), "--window", "ten minutes"))
                .isEqualTo(2);
        assertThat(err.toString()).contains("--window").contains("until-recovery");
    }

    @Test
    void calibrateWithoutRoundsCsv_isABadInputNamingTheFile(@TempDir Path dir) {
        assertThat(run(
                        "--calibrate",
                        dir.toString(),
                        "--calibration-template",
                        Path.of("..", "scenarios", "calibration", "loadtest-template.yaml")
                                .toString(),
                        "--out",
                        dir.resolve("out").toString()))
                .isEqualTo(2);
        assertThat(err.toString())
                .contains(dir.resolve("rounds.csv").toString())
                .contains("no such file");
        assertThat(Files.exists(dir.resolve("out"))).isFalse();
    }

    @Test
    void calibrationStartThatDoesNotLoad_isABadInputNamingIt_andWritesNothing(@TempDir Path dir) {
        Path missing = dir.resolve("previous.yaml");
        assertThat(run(
                        "--calibrate",
                        Path.of("..", "docs", "evidence", "run2-producer-per-leader")
                                .toString(),
                        "--calibration-template",
                        Path.of("..", "scenarios", "calibration", "loadtest-template.yaml")
                                .toString(),
                        "--calibration-start",
                        missing.toString(),
                        "--out",
                        dir.resolve("out").toString()))
                .isEqualTo(2);
        assertThat(err.toString()).contains("previous.yaml");
        assertThat(Files.exists(dir.resolve("out"))).isFalse();
    }

    @Test
    void noFitWithoutAStartModel_isABadInputNamingTheOption(@TempDir Path dir) {
        assertThat(run(
                        "--calibrate",
                        Path.of("..", "docs", "evidence", "run2-producer-per-leader")
                                .toString(),
                        "--max-evaluations",
                        "0",
                        "--out",
                        dir.resolve("out").toString()))
                .isEqualTo(2);
        assertThat(err.toString()).contains("--max-evaluations 0").contains("--calibration-start");
        assertThat(Files.exists(dir.resolve("out"))).isFalse();
    }

    @Test
    void noFit_writesOnlyTheStartModelAgainstTheRuns(@TempDir Path dir) throws IOException {
        Path outDir = dir.resolve("out");
        int code = run(
                "--calibrate",
                Path.of("..", "docs", "evidence", "run2-producer-per-leader").toString(),
                "--calibration-template",
                Path.of("..", "scenarios", "calibration", "loadtest-template.yaml")
                        .toString(),
                "--calibration-start",
                Path.of("..", "scenarios", "09-calibrated-loadtest.yaml").toString(),
                "--max-evaluations",
                "0",
                "--calibration-name",
                "check",
                "--out",
                outDir.toString(),
                "--no-progress");
        assertThat(code).as(err.toString()).isZero();
        try (Stream<Path> files = Files.list(outDir)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactly("check-against-measured.md");
        }
        assertThat(Files.readString(outDir.resolve("check-against-measured.md")))
                .contains("no fit")
                .contains("not fitted on these runs")
                .contains("| `diskWriteMBps` | 114.8 |")
                .doesNotContain("## Fitted parameters");
    }

    /**
     * A model compared without a fit is the model as written: a parameter its file predates (here the catch-up's base
     * CPU cost, absent from the two-quota fit) keeps its default, not the value a search would start from.
     */
    @Test
    void noFit_ofAModelWithoutAParameter_keepsItsDefault_notTheSearchsStart(@TempDir Path dir) throws IOException {
        Path outDir = dir.resolve("out");
        int code = run(
                "--calibrate",
                Path.of("..", "docs", "evidence", "run36-three-quarter-core").toString(),
                "--calibration-template",
                Path.of("..", "scenarios", "calibration", "loadtest-template.yaml")
                        .toString(),
                "--calibration-start",
                Path.of("..", "docs", "evidence", "calibration", "two-quota-fit", "two-quota-fit.yaml")
                        .toString(),
                "--max-evaluations",
                "0",
                "--calibration-name",
                "check",
                "--out",
                outDir.toString(),
                "--no-progress");
        assertThat(code).as(err.toString()).isZero();
        assertThat(Files.readString(outDir.resolve("check-against-measured.md")))
                .contains("| `throttledFetchWaitScale` | 0.377 |")
                .containsPattern("\\| `catchUpBaseCores` \\| 0(\\.0+)? \\|");
    }

    @Test
    void policyOption_choosesACustomPolicyTheFileDefinesButDoesNotCompare(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("small.yaml");
        Files.writeString(
                file,
                SMALL + "customPolicies: [{name: gentle, config: {leader.imbalance.election.max.per.run: \"5\"}}]\n");
        int code = run(
                file.toString(),
                "--out",
                dir.resolve("out").toString(),
                "--no-progress",
                "--no-html",
                "--policy",
                "gentle");
        assertThat(code).as(err.toString()).isZero();
        assertThat(out.toString()).contains("gentle").doesNotContain("kip-example");
    }

    @Test
    void secondScenarioIntoTheSameDirectory_keepsTheFirstOnesSummaryRows(@TempDir Path dir) throws IOException {
        Path first = dir.resolve("small.yaml");
        Files.writeString(first, SMALL);
        Path second = dir.resolve("other.yaml");
        Files.writeString(second, SMALL.replace("name: small", "name: other"));
        Path outDir = dir.resolve("out");

        assertThat(run(first.toString(), "--out", outDir.toString(), "--no-progress", "--no-html"))
                .as(err.toString())
                .isZero();
        assertThat(run(second.toString(), "--out", outDir.toString(), "--no-progress", "--no-html"))
                .as(err.toString())
                .isZero();
        assertThat(run(first.toString(), "--out", outDir.toString(), "--no-progress", "--no-html"))
                .as(err.toString())
                .isZero();

        String summary = Files.readString(outDir.resolve("summary.csv"));
        assertThat(summary).contains("small,kip-example,99,").contains("other,kip-example,99,");
        assertThat(summary.lines().filter(l -> l.startsWith("small,kip-example,99,")))
                .as("re-run replaces, not repeats")
                .hasSize(1);
        assertThat(summary.lines().filter(l -> l.startsWith("scenario,"))).hasSize(1);
    }

    @Test
    void seedOption_overridesTheScenarioSeed(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("small.yaml");
        Files.writeString(file, SMALL);
        assertThat(run(
                        file.toString(),
                        "--seed",
                        "5",
                        "--no-html",
                        "--no-progress",
                        "--out",
                        dir.resolve("o").toString()))
                .isZero();
        assertThat(out.toString()).contains("seed 5");
    }

    @Test
    void badFile_failsBeforeRunningAnything_namingFileAndField(@TempDir Path dir) throws IOException {
        Path good = dir.resolve("good.yaml");
        Files.writeString(good, SMALL);
        Path bad = dir.resolve("bad.yaml");
        Files.writeString(bad, SMALL.replace("down: 3m", "down: three"));
        Path outDir = dir.resolve("out");
        int code = run(good.toString(), bad.toString(), "--out", outDir.toString(), "--no-progress");
        assertThat(code).isEqualTo(SimulateCommand.BAD_INPUT);
        assertThat(err.toString())
                .contains(bad.toString())
                .contains("timeline.events[0].restart.down")
                .contains("'three'");
        assertThat(outDir).doesNotExist();
    }

    @Test
    void unknownPolicyOption_isABadInput(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("small.yaml");
        Files.writeString(file, SMALL);
        assertThat(run(file.toString(), "--policy", "fastest", "--no-progress")).isEqualTo(SimulateCommand.BAD_INPUT);
        assertThat(err.toString()).contains("unknown policy 'fastest'").contains("kip-example-literal");
    }

    @Test
    void frontier_runsThePresetAtEachRate_andPrintsTheTradeOff(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("small.yaml");
        Files.writeString(file, SMALL);
        int code = run(
                file.toString(),
                "--out",
                dir.resolve("out").toString(),
                "--no-progress",
                "--no-html",
                "--frontier",
                "--frontier-rates",
                "16m,64MiB");
        assertThat(code).as(err.toString()).isZero();
        assertThat(out.toString())
                .contains("frontier (modelled)")
                .contains("recommended-paced:leader.imbalance.catch.up.pacing=static,"
                        + "leader.imbalance.catch.up.pacing.rate.bytes=16777216")
                .contains("leader.imbalance.catch.up.pacing.rate.bytes=67108864")
                .containsPattern("(?m)^[* ] kip-example ")
                .containsPattern("(?m)^[* ] immediate ");
        assertThat(Files.readString(dir.resolve("out").resolve("summary.csv")))
                .contains("leader.imbalance.catch.up.pacing.rate.bytes=67108864");
    }

    @Test
    void frontierRateThatIsNotASize_orWithoutFrontier_isABadInputNamingIt(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("small.yaml");
        Files.writeString(file, SMALL);
        assertThat(run(file.toString(), "--no-progress", "--frontier", "--frontier-rates", "fast"))
                .isEqualTo(SimulateCommand.BAD_INPUT);
        assertThat(err.toString()).contains("--frontier-rates").contains("'fast' is not a size");
        assertThat(run(file.toString(), "--no-progress", "--frontier", "--frontier-rates", "100"))
                .isEqualTo(SimulateCommand.BAD_INPUT);
        assertThat(err.toString()).contains("leader.imbalance.catch.up.pacing.rate.bytes");
        assertThat(run(file.toString(), "--no-progress", "--frontier-rates", "16m"))
                .isEqualTo(SimulateCommand.BAD_INPUT);
        assertThat(err.toString()).contains("--frontier-rates is read only with --frontier");
    }

    @Test
    void nothingToRun_isABadInput() {
        assertThat(run("--no-progress")).isEqualTo(SimulateCommand.BAD_INPUT);
        assertThat(err.toString()).contains("--all");
    }

    @Test
    void listPolicies_namesEveryStandardPolicy() {
        assertThat(run("--list-policies")).isZero();
        assertThat(out.toString())
                .contains("immediate")
                .contains("kip-example-wall-clock")
                .contains("throttle-only");
    }
}
