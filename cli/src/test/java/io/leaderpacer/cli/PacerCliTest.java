package io.leaderpacer.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ConnectException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

class PacerCliTest {

    /** One invocation's exit status and what it printed. */
    private record Invocation(int status, String out, String err) {}

    private static Invocation execute(CommandLine cmd, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cmd.setOut(new PrintWriter(out, true));
        cmd.setErr(new PrintWriter(err, true));
        int status = cmd.execute(args);
        return new Invocation(status, out.toString(), err.toString());
    }

    private static Invocation execute(String... args) {
        return execute(PacerCli.commandLine(), args);
    }

    @Test
    void rootCommand_registersEverySubcommand() {
        assertThat(PacerCli.commandLine().getSubcommands().keySet())
                .contains("run", "plan", "status", "config", "simulate", "demo", "help");
    }

    @Test
    void help_listsEveryCommandAndExitsZero() {
        Invocation r = execute("--help");

        assertThat(r.status()).isZero();
        assertThat(r.out()).contains("Usage: pacer", "run", "plan", "config", "simulate", "demo");
        assertThat(r.err()).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"run", "plan", "status", "config", "simulate", "demo"})
    void subcommandHelp_printsItsOwnUsageAndExitsZero(String command) {
        Invocation r = execute(command, "--help");

        assertThat(r.status()).isZero();
        assertThat(r.out()).contains("Usage: pacer " + command);
    }

    /** The root command and every subcommand, as {@code pacer --help} and {@code pacer COMMAND --help} show them. */
    static Stream<CommandLine> everyCommand() {
        CommandLine root = PacerCli.commandLine();
        return Stream.concat(Stream.of(root), root.getSubcommands().values().stream());
    }

    @Test
    void help_everyCommandSummaryIsOneWholeSentence() {
        for (CommandLine sub : PacerCli.commandLine().getSubcommands().values()) {
            String summary = sub.getCommandSpec().usageMessage().description()[0];
            assertThat(summary).as(sub.getCommandName()).endsWith(".");
        }
    }

    @ParameterizedTest
    @MethodSource("everyCommand")
    void help_wrapsAt80Columns_andBreaksOnlyBetweenParagraphs(CommandLine command) {
        assertThat(command.getUsageMessage().lines())
                .as(command.getCommandName())
                .allSatisfy(line -> assertThat(line.length()).as(line).isLessThanOrEqualTo(80));
        List<String> paragraphs = new ArrayList<>();
        paragraphs.addAll(List.of(command.getCommandSpec().usageMessage().description()));
        paragraphs.addAll(List.of(command.getCommandSpec().usageMessage().footer()));
        assertThat(paragraphs)
                .as(command.getCommandName() + ": a paragraph ends a sentence, or is an aligned example line")
                .allSatisfy(p -> {
                    String text = p.replace("%n", "").strip();
                    assertThat(p.startsWith(" ")
                                    || text.isEmpty()
                                    || text.contains("  ")
                                    || text.matches("(?s).*[.:)]$"))
                            .as(p)
                            .isTrue();
                });
    }

    @Test
    void version_namesTheCommandAndExitsZero() {
        Invocation r = execute("--version");

        assertThat(r.status()).isZero();
        assertThat(r.out()).startsWith("pacer ");
    }

    @Test
    void unknownOption_isAUsageErrorWithExitTwoAndNoStackTrace() {
        Invocation r = execute("demo", "--bogus");

        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err()).contains("Unknown option: '--bogus'").contains("Usage: pacer demo");
        assertThat(r.err()).doesNotContain("Exception").doesNotContain("\tat ");
    }

    @Test
    void unknownCommand_isAUsageErrorWithExitTwo() {
        Invocation r = execute("frobnicate");

        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err()).contains("frobnicate").doesNotContain("\tat ");
    }

    @Test
    void noCommand_saysWhichCommandsExistAndExitsTwo() {
        Invocation r = execute();

        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err()).contains("Missing a command: run, plan, status, config, ");
    }

    @Test
    void optionMissingItsValue_isAUsageErrorWithExitTwo() {
        Invocation r = execute("demo", "--out");

        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err()).contains("--out").doesNotContain("\tat ");
    }

    @Test
    void everyError_startsWithTheSamePrefix(@TempDir Path dir) {
        String missing = dir.resolve("none.properties").toString();
        List<Invocation> errors = List.of(
                execute("demo", "--bogus"),
                execute(),
                execute("plan", "--config", missing),
                execute("run", "--config", missing),
                execute("simulate", "--scenarios-dir", dir.toString()),
                execute("config", "--bootstrap-server", "h:9092", "--alter"),
                execute("config", "--bootstrap-server", "h:9092", "--alter", "--add-config", "nokey=1"));
        assertThat(errors).allSatisfy(r -> {
            assertThat(r.status()).as(r.err()).isNotZero();
            assertThat(r.err()).as(r.err()).startsWith("Error: ");
        });
    }

    @Command(name = "boom")
    static final class FailingCommand implements Callable<Integer> {
        @Override
        public Integer call() {
            throw new IllegalStateException("could not reach the cluster", new ConnectException("Connection refused"));
        }
    }

    @Test
    void failingCommand_printsOneLineWithTheCauseAndExitsOne() {
        CommandLine cmd = PacerCli.commandLine();
        cmd.addSubcommand("boom", new FailingCommand());

        Invocation r = execute(cmd, "boom");

        assertThat(r.status()).isEqualTo(1);
        assertThat(r.err().strip()).isEqualTo("Error: pacer boom: could not reach the cluster: Connection refused");
    }

    @Test
    void failureDescription_skipsRepeatedAndEmptyMessages() {
        Exception e = new RuntimeException("java.io.IOException: disk full", new IOException("disk full"));

        assertThat(FailureHandler.describe(e)).isEqualTo("java.io.IOException: disk full");
        assertThat(FailureHandler.describe(new NullPointerException()))
                .doesNotContain("Exception")
                .contains("--verbose");
    }
}
