package io.leaderpacer.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every {@code pacer} subcommand is named in each list of commands an operator reads: {@code pacer --help}, the
 * README's command lines and the "Missing a command" error.
 *
 * <p>Why: {@code throttle-probe} was registered and missing from two of them. The subcommands are read from picocli's
 * own registry ({@link CommandLine#getSubcommands()}), not from a list in this test, so a subcommand added to
 * {@link PacerCli} later fails here until every list names it. picocli's built-in {@code help} is left out: it is
 * {@code --help} under another name.
 */
class CommandListsTest {

    /** The project's root, seen from this module's directory. */
    private static final Path README = Path.of("..", "README.md");
    /** A README line that runs a command: {@code ./pacer NAME}, then the end of the line or a space. */
    private static final Pattern COMMAND_LINE = Pattern.compile("^\\./pacer ([a-z][a-z0-9-]*)(?:\\s.*)?$");

    /** Every registered subcommand's name, in registration order. */
    static List<String> registered() {
        List<String> names = new ArrayList<>();
        PacerCli.commandLine().getSubcommands().forEach((name, sub) -> {
            if (!(sub.getCommand() instanceof CommandLine.HelpCommand)) {
                names.add(name);
            }
        });
        return names;
    }

    /** The commands a Markdown text runs in its fenced code blocks: lines that start with {@code ./pacer NAME}. */
    static Set<String> readmeCommands(String markdown) {
        Set<String> names = new LinkedHashSet<>();
        boolean fenced = false;
        for (String line : markdown.lines().toList()) {
            if (line.startsWith("```")) {
                fenced = !fenced;
                continue;
            }
            Matcher m = COMMAND_LINE.matcher(line);
            if (fenced && m.matches()) {
                names.add(m.group(1));
            }
        }
        return names;
    }

    /** The names in the "Commands:" section of a usage message. */
    static Set<String> helpCommands(String usage) {
        Set<String> names = new LinkedHashSet<>();
        List<String> lines = usage.lines().toList();
        int start = lines.indexOf("Commands:");
        for (int i = start + 1; start >= 0 && i < lines.size() && lines.get(i).startsWith(" "); i++) {
            // a wrapped description line starts further in; a command name starts at the section's indent
            if (!lines.get(i).startsWith("   ")) {
                names.add(lines.get(i).strip().split("\\s+")[0]);
            }
        }
        return names;
    }

    /** The names a "Missing a command: a, b or c" error lists. */
    static Set<String> missingCommandList(String error) {
        Matcher m = Pattern.compile("Missing a command: (.*)").matcher(error);
        assertThat(m.find()).as(error).isTrue();
        Set<String> names = new LinkedHashSet<>();
        for (String part : m.group(1).strip().split(", | or ")) {
            names.add(part.strip());
        }
        return names;
    }

    @Test
    void readmeCommands_areTheFencedLinesStartingWithDotSlashPacer() {
        String readme = String.join(
                "\n",
                "Run `./pacer status` to see it.",
                "./pacer run outside a fence",
                "```",
                "./pacer demo",
                "./pacer plan --config x.properties   # a comment",
                "  ./pacer indented",
                "./pacer-other",
                "pacer config --describe",
                "```",
                "./pacer loadtest after the fence");

        assertThat(readmeCommands(readme)).containsExactly("demo", "plan");
    }

    @Test
    void helpCommands_areTheNamesOfTheCommandsSection_notTheirWrappedDescriptions() {
        String usage = String.join(
                "\n",
                "Usage: pacer [-hV] COMMAND",
                "  -h, --help   Show this help message and exit.",
                "Commands:",
                "  run             Run the agent.",
                "  throttle-probe  Measure when a restarted broker enforces a throttle, over",
                "                    several lines.",
                "  help            Display help information about the specified command.",
                "",
                "Start with:  pacer demo");

        assertThat(helpCommands(usage)).containsExactly("run", "throttle-probe", "help");
    }

    @Test
    void missingCommandList_splitsOnCommasAndTheLastOr() {
        assertThat(missingCommandList("Error: Missing a command: run, plan or throttle-probe\n"))
                .containsExactly("run", "plan", "throttle-probe");
    }

    @Test
    void registered_readsPicocli_andFindsTheCommandsKnownToday() {
        assertThat(registered())
                .contains("run", "plan", "status", "config", "simulate", "loadtest", "demo", "throttle-probe")
                .doesNotContain("help");
    }

    @ParameterizedTest
    @MethodSource("registered")
    void everySubcommand_isInPacerHelpsCommandList(String name) {
        StringWriter out = new StringWriter();
        CommandLine cmd = PacerCli.commandLine();
        cmd.setOut(new PrintWriter(out, true));
        cmd.execute("--help");

        assertThat(helpCommands(out.toString())).contains(name);
    }

    @ParameterizedTest
    @MethodSource("registered")
    void everySubcommand_isInTheReadmesCommandLines(String name) throws IOException {
        assertThat(readmeCommands(Files.readString(README)))
                .as("README.md: a line `./pacer %s ...` in a ``` block", name)
                .contains(name);
    }

    @ParameterizedTest
    @MethodSource("registered")
    void everySubcommand_isInTheMissingACommandError(String name) {
        StringWriter err = new StringWriter();
        CommandLine cmd = PacerCli.commandLine();
        cmd.setErr(new PrintWriter(err, true));
        cmd.execute();

        assertThat(missingCommandList(err.toString())).contains(name);
    }
}
