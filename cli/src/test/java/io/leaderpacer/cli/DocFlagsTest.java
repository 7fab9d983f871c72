package io.leaderpacer.cli;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every {@code pacer COMMAND --option} the README and the user docs show is a command and an option picocli knows: a
 * command line copied from the docs at 3 a.m. must not end in "Unknown option".
 *
 * <p>Why from picocli's registry: the options are read from each subcommand's own spec, so an option renamed in the
 * code fails here until every doc that shows it is changed (as {@code pacer status --config}, which the docs once
 * showed and the command never had).
 */
class DocFlagsTest {

    private static final Path ROOT = Path.of("..");
    /** {@code pacer NAME} (also {@code ./pacer}, {@code bin/pacer}, {@code /opt/pacer/bin/pacer}), then its words. */
    private static final Pattern INVOCATION =
            Pattern.compile("(?:^|[\\s`(])(?:\\./|[\\w./-]*bin/)?pacer ([a-z][a-z0-9-]*)((?:[ \\t]+[^\\s`|;&)]+)*)");
    /** An option word: {@code --name} or {@code --name=value}. */
    private static final Pattern OPTION = Pattern.compile("^(--[a-z][a-z0-9-]*)(?:=.*)?$");

    @Test
    void everyOptionTheDocsShow_isOneItsCommandHas() {
        Map<String, CommandLine> commands = PacerCli.commandLine().getSubcommands();
        List<String> wrong = new ArrayList<>();
        int checked = 0;
        for (Path doc : docs()) {
            for (String text : commandTexts(read(doc))) {
                Matcher m = INVOCATION.matcher(text);
                while (m.find()) {
                    CommandLine sub = commands.get(m.group(1));
                    if (sub == null) {
                        continue; // not a subcommand (prose such as "pacer run's"); CommandListsTest covers names
                    }
                    Set<String> known = optionNames(sub.getCommandSpec());
                    for (String word : m.group(2).trim().split("\\s+")) {
                        Matcher o = OPTION.matcher(word);
                        if (o.matches()) {
                            checked++;
                            if (!known.contains(o.group(1))) {
                                wrong.add(doc + ": pacer " + m.group(1) + " " + o.group(1));
                            }
                        }
                    }
                }
            }
        }

        assertThat(checked).as("options checked").isGreaterThan(30);
        assertThat(wrong)
                .as("options the docs show that the command does not have")
                .isEmpty();
    }

    @Test
    void madeUpDoc_withAnOptionTheCommandLacks_isFound() {
        String doc = "Run `pacer status --config FILE` or\n```\n./pacer plan --config x.properties --nope\n```\n";
        List<String> words = new ArrayList<>();
        for (String text : commandTexts(doc)) {
            Matcher m = INVOCATION.matcher(text);
            while (m.find()) {
                words.add(m.group(1) + m.group(2));
            }
        }

        assertThat(words).containsExactlyInAnyOrder("status --config FILE", "plan --config x.properties --nope");
        assertThat(optionNames(
                        PacerCli.commandLine().getSubcommands().get("status").getCommandSpec()))
                .doesNotContain("--config")
                .contains("--url");
    }

    /** The code of a Markdown text: each inline code span, and each line of its fenced blocks (continuations joined). */
    static List<String> commandTexts(String markdown) {
        List<String> out = new ArrayList<>();
        StringBuilder prose = new StringBuilder();
        boolean fenced = false;
        StringBuilder continued = new StringBuilder();
        for (String line : markdown.lines().toList()) {
            if (line.startsWith("```")) {
                fenced = !fenced;
                continue;
            }
            if (fenced) {
                String code = line.replaceAll("\\s+#.*$", "");
                if (code.endsWith("\\")) {
                    continued.append(code, 0, code.length() - 1).append(' ');
                    continue;
                }
                out.add(continued + code);
                continued.setLength(0);
            } else {
                prose.append(line).append('\n');
            }
        }
        Matcher span = Pattern.compile("`([^`]+)`").matcher(prose);
        while (span.find()) {
            out.add(span.group(1));
        }
        return out;
    }

    private static Set<String> optionNames(CommandSpec spec) {
        Set<String> names = new TreeSet<>();
        for (OptionSpec o : spec.options()) {
            names.addAll(List.of(o.names()));
        }
        return names;
    }

    private static List<Path> docs() {
        List<Path> docs = new ArrayList<>(List.of(ROOT.resolve("README.md")));
        try (Stream<Path> files = Files.list(ROOT.resolve("docs"))) {
            files.filter(f -> f.toString().endsWith(".md")).sorted().forEach(docs::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return docs;
    }

    private static String read(Path doc) {
        try {
            return Files.readString(doc);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
