package io.leaderpacer.cli;

import io.leaderpacer.agent.config.AgentPropertiesFile;
import io.leaderpacer.agent.dynamic.ConfigAssignments;
import io.leaderpacer.engine.config.PacerConfig;
import io.leaderpacer.simulator.scenario.ScenarioLoader;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Assume;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Bad input through the real {@code pacer} command line, in process: bad scenario files for {@code simulate},
 * bad properties files for {@code run} and {@code plan}, bad keys and values for {@code config}. Every time: a
 * non-zero exit, an error line first on standard error, and no stack trace or Java exception class name on either
 * stream (the command's writers, and the process's own streams, which a logger could write to); a refused scenario
 * leaves the output directory unwritten.
 */
class PacerCliBadInputProperties {

    /** A stack frame line, or a fully qualified exception class name: what an operator must never see. */
    private static final Pattern LEAK =
            Pattern.compile("\tat |\\b(java|javax|jdk|sun|org|com|io)\\.[\\w.$]*(Exception|Error)\\b");

    private static Path dir;

    @BeforeContainer
    static void createDirectory() throws IOException {
        dir = Files.createTempDirectory("pacer-cli-fuzz");
    }

    @AfterContainer
    static void deleteDirectory() throws IOException {
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    /** One invocation's exit status and everything it printed. */
    private record Invocation(int status, String err, String everything) {}

    @Property(tries = 60)
    void simulate_badScenario_failsOnOneLineAndWritesNothing(@ForAll("badScenario") String text) throws IOException {
        Path file = write("scenario.yaml", text.getBytes(StandardCharsets.UTF_8));
        Path out = dir.resolve("sim-out");

        Invocation r = execute("simulate", file.toString(), "--out", out.toString(), "--no-progress");

        assertCleanFailure(r);
        assertThat(r.err()).startsWith("Error: " + file);
        assertThat(out).doesNotExist();
    }

    @Property(tries = 60)
    void runAndPlan_badPropertiesFile_failOnOneLine(
            @ForAll("badProperties") byte[] bytes, @ForAll("fileCommand") String command) throws IOException {
        Path file = write("agent.properties", bytes);
        Assume.that(catchThrowable(() -> new AgentPropertiesFile(file).load()) != null);

        Invocation r = execute(command, "--config", file.toString());

        assertCleanFailure(r);
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err()).startsWith("Error: " + file + ": ");
        assertThat(r.err().strip()).doesNotContain("\n");
    }

    @Property(tries = 25)
    void config_badAssignment_isRefusedBeforeAnythingIsWritten(@ForAll("badAssignment") String assignment) {
        Invocation r = execute(
                "config",
                "--bootstrap-server",
                "127.0.0.1:1",
                "--timeout-ms",
                "2000",
                "--alter",
                "--add-config",
                assignment);

        assertCleanFailure(r);
        assertThat(r.err()).startsWith("Error: ");
        assertThat(r.err()).doesNotContain("no answer from the cluster");
    }

    @Example
    void run_clientPropertyKafkaRefuses_failsOnOneLineWithoutAStackTrace() throws IOException {
        Path file = write(
                "client.properties",
                "bootstrap.servers=127.0.0.1:1\nrequest.timeout.ms=abc\n".getBytes(StandardCharsets.UTF_8));

        Invocation r = execute("run", "--config", file.toString());

        assertCleanFailure(r);
        assertThat(r.err())
                .startsWith("Error: cannot create the Kafka client from " + file)
                .contains("request.timeout.ms");
    }

    @Example
    void config_badOptionType_isAUsageErrorWithoutAStackTrace() {
        Invocation r = execute(
                "config", "--bootstrap-server", "127.0.0.1:1", "--timeout-ms", "99999999999999999999", "--describe");

        assertCleanFailure(r);
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err()).contains("--timeout-ms");
    }

    @Example
    void simulate_missingFile_failsOnOneLine() {
        Invocation r = execute(
                "simulate",
                dir.resolve("nope.yaml").toString(),
                "--out",
                dir.resolve("o").toString());

        assertCleanFailure(r);
        assertThat(r.err().strip()).isEqualTo("Error: " + dir.resolve("nope.yaml") + ": no such file");
    }

    @Provide
    Arbitrary<String> badScenario() {
        Arbitrary<String> truncated = Arbitraries.of(shippedScenarios())
                .flatMap(text ->
                        Arbitraries.integers().between(0, text.length() - 1).map(n -> text.substring(0, n)));
        Arbitrary<String> random = Arbitraries.strings().ofMaxLength(60);
        Arbitrary<String> wrongType = Arbitraries.of(shippedScenarios())
                .flatMap(text -> Arbitraries.of(
                        text.replaceFirst("brokers: \\d+", "brokers: 1e308"),
                        text.replaceFirst("end: \\w+", "end: -5m"),
                        text.replaceFirst("end: \\w+", "end: 99999999999999999999h"),
                        text.replaceFirst("partitions: \\d+", "partitions: [1, [2, [3]]]"),
                        text.replaceFirst("name: \\S+", "name: \"two\\nlines\""),
                        text + "\nunknownField: 1\n"));
        return Arbitraries.oneOf(truncated, random, wrongType).filter(PacerCliBadInputProperties::refusedByLoader);
    }

    @Provide
    Arbitrary<byte[]> badProperties() {
        Arbitrary<String> text = Arbitraries.oneOf(
                Arbitraries.strings().ofMaxLength(60),
                Arbitraries.of(
                        "bootstrap.servers=b:9092\npacer.http.port=99999",
                        "bootstrap.servers=b:9092\npacer.http.prot=1",
                        "bootstrap.servers=b:9092\nleader.imbalance.election.max.per.run=1e9",
                        "bootstrap.servers=b:9092\nleader.imbalance.election.max.per.run=9\\n9",
                        "bootstrap.servers=b:9092\nx=\\uZZZZ",
                        "pacer.http.enabled=yes",
                        "",
                        "bootstrap.servers=b:9092\npreferred.leader.deprioritized.list=1,,2"));
        Arbitrary<byte[]> garbage =
                Arbitraries.bytes().array(byte[].class).ofMinSize(1).ofMaxSize(100);
        return Arbitraries.oneOf(text.map(t -> t.getBytes(StandardCharsets.UTF_8)), garbage);
    }

    @Provide
    Arbitrary<String> fileCommand() {
        return Arbitraries.of("run", "plan");
    }

    @Provide
    Arbitrary<String> badAssignment() {
        return Arbitraries.oneOf(
                        Arbitraries.of(
                                "leader.imbalance.election.max.per.run=0",
                                "leader.imbalance.election.max.per.run=abc",
                                "leader.imbalance.election.max.per.run=99999999999999999999",
                                "leader.imbalance.election.wait.for.sync.threshold.percent=NaN",
                                "leader.imbalance.election.algorithm=fastest",
                                "preferred.leader.deprioritized.list=[1,-2]",
                                "no.such.key=1",
                                "=1",
                                "a=1,a=2",
                                "justtext",
                                ",",
                                "leader.imbalance.check.interval.seconds=5\n0"),
                        Arbitraries.strings()
                                .withChars("=,[]ab.1 -")
                                .ofMinLength(1)
                                .ofMaxLength(12)
                                .map(s -> "leader.imbalance.election.max.per.run=" + s))
                .filter(PacerCliBadInputProperties::refusedByValidation);
    }

    /** Whether {@code pacer config} must refuse the assignment before writing (syntax or value). */
    private static boolean refusedByValidation(String assignment) {
        return catchThrowable(() -> PacerConfig.defaults().withUpdates(ConfigAssignments.parseAdd(List.of(assignment))))
                != null;
    }

    private static boolean refusedByLoader(String text) {
        return catchThrowable(() -> new ScenarioLoader().parse("check", text)) != null;
    }

    private static List<String> shippedScenarios() {
        try (Stream<Path> files = Files.list(Path.of("..", "scenarios"))) {
            return files.filter(p -> p.toString().endsWith(".yaml"))
                    .sorted()
                    .map(p -> {
                        try {
                            return Files.readString(p);
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                    })
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Path write(String name, byte[] bytes) throws IOException {
        Path file = dir.resolve(name);
        Files.write(file, bytes);
        return file;
    }

    /** Runs {@code pacer} with the given arguments, capturing its writers and the process's streams. */
    private static synchronized Invocation execute(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        PrintStream systemOut = System.out;
        PrintStream systemErr = System.err;
        PrintStream capture = new PrintStream(console, true, StandardCharsets.UTF_8);
        int status;
        try {
            System.setOut(capture);
            System.setErr(capture);
            status = PacerCli.commandLine()
                    .setOut(new PrintWriter(out, true))
                    .setErr(new PrintWriter(err, true))
                    .execute(args);
        } finally {
            System.setOut(systemOut);
            System.setErr(systemErr);
        }
        return new Invocation(
                status, err.toString(), out + "\n" + err + "\n" + console.toString(StandardCharsets.UTF_8));
    }

    private static void assertCleanFailure(Invocation r) {
        assertThat(r.status()).as("exit status; printed:%n%s", r.everything()).isNotZero();
        assertThat(r.err()).as("an error line first").isNotBlank().doesNotStartWith("Usage");
        assertThat(LEAK.matcher(r.everything()).find())
                .as("no stack trace or exception class name in:%n%s", r.everything())
                .isFalse();
        String first = r.err().lines().findFirst().orElse("");
        assertThat(first.chars().noneMatch(c -> Character.isISOControl(c) && c != '\t'))
                .as("clean first line: %s", first)
                .isTrue();
    }
}
