package io.leaderpacer.simulator.scenario;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.leaderpacer.engine.config.ConfigException;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Bad scenario files: random YAML, every shipped scenario truncated anywhere, any field of a shipped scenario
 * replaced by a wrong type or a huge value, deep nesting and bytes that are not UTF-8 give a scenario or a
 * {@link ScenarioException} whose single line names the file (and the field when one is at fault); never another
 * exception.
 */
class ScenarioLoaderBadInputProperties {

    private static final String SOURCE = "bad.yaml";
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final ScenarioLoader loader = new ScenarioLoader();

    @Property(tries = 300)
    void randomYaml_loadsOrFailsWithOneLineNamingTheFile(@ForAll("randomYaml") String text) {
        assertLoadsOrClearError(text);
    }

    @Property(tries = 400)
    void shippedScenarioTruncatedAnywhere_loadsOrFailsWithOneLineNamingTheFile(
            @ForAll("shippedFile") String text, @ForAll("fraction") double where) {
        assertLoadsOrClearError(text.substring(0, (int) (text.length() * where)));
    }

    @Property(tries = 600)
    void anyFieldReplacedByAWrongTypeOrHugeValue_isRefusedNamingTheField(
            @ForAll("shippedFile") String text,
            @ForAll("fraction") double which,
            @ForAll("nastyNode") JsonNode replacement)
            throws IOException {
        JsonNode tree = YAML.readTree(text);
        List<JsonPointer> leaves = new ArrayList<>();
        collectLeaves(tree, JsonPointer.empty(), leaves);
        JsonPointer target = leaves.get((int) (which * leaves.size()));
        JsonNode parent = tree.at(target.head());
        if (parent instanceof ObjectNode o) {
            o.set(target.last().getMatchingProperty(), replacement);
        } else {
            ((ArrayNode) parent).set(target.last().getMatchingIndex(), replacement);
        }

        assertLoadsOrClearError(YAML.writeValueAsString(tree));
    }

    @Property(tries = 100)
    void bytesThatAreNotUtf8_failWithOneLineNamingThePath(@ForAll @Size(min = 1, max = 200) byte[] bytes)
            throws IOException {
        Path dir = Files.createTempDirectory("pacer-fuzz");
        Path file = dir.resolve("garbage.yaml");
        try {
            Files.write(file, bytes);
            Throwable thrown = catchThrowable(() -> loader.load(file));
            if (thrown != null) {
                assertClearError(thrown, file.toString());
            }
        } finally {
            Files.deleteIfExists(file);
            Files.delete(dir);
        }
    }

    @Example
    void deeplyNestedYaml_isRefusedNamingTheFile() {
        assertClearError(
                catchThrowable(() -> loader.parse(SOURCE, "name: " + "[".repeat(5000) + "]".repeat(5000))), SOURCE);
        assertClearError(catchThrowable(() -> loader.parse(SOURCE, "name:\n" + nestedMapping(3000))), SOURCE);
    }

    @Example
    void notUtf8_saysSoWithTheLine() throws IOException {
        // Regression: the message was the decoder's "Input length = 1".
        Path dir = Files.createTempDirectory("pacer-fuzz");
        Path file = dir.resolve("latin1.yaml");
        try {
            Files.write(file, "name: x\ndescription: caf\u00e9\n".getBytes(StandardCharsets.ISO_8859_1));

            assertThat(catchThrowable(() -> loader.load(file)))
                    .isExactlyInstanceOf(ScenarioException.class)
                    .hasMessage(
                            file + ": not UTF-8 text: byte 0xe9 on line 2 is not valid UTF-8 (save the file as UTF-8)");
        } finally {
            Files.deleteIfExists(file);
            Files.delete(dir);
        }
    }

    @Example
    void brokerIdBeyondInt_isRefusedNotWrapped() throws IOException {
        // Regression: 4294967296 was read with asInt() and wrapped to broker 0, which exists.
        String text = shipped("01-disk-replaced.yaml")
                .replace("partitions: 50\n", "partitions: 1\n    assignment: [[4294967296, 1, 2]]\n");

        assertThat(catchThrowable(() -> loader.parse(SOURCE, text)))
                .isExactlyInstanceOf(ScenarioException.class)
                .hasMessageContaining("topics[1].assignment[0][0]")
                .hasMessageContaining("4294967296");
    }

    @Example
    void hugeDuration_isRefusedRatherThanSaturated() throws IOException {
        // Regression: 99999999999999999999h was rounded to Long.MAX_VALUE milliseconds: a run that never ends.
        String text = shipped("01-disk-replaced.yaml").replace("end: 3h", "end: 99999999999999999999h");

        assertThat(catchThrowable(() -> loader.parse(SOURCE, text)))
                .isExactlyInstanceOf(ScenarioException.class)
                .hasMessageContaining("timeline.end")
                .hasMessageContaining("at most");
    }

    @Example
    void valueWithALineBreak_isQuotedOnOneLine() throws IOException {
        String text = shipped("01-disk-replaced.yaml").replace("end: 3h", "end: \"3h\\nlater\"");

        assertThat(catchThrowable(() -> loader.parse(SOURCE, text)))
                .hasMessage(SOURCE
                        + ": field 'timeline.end': '3h\\nlater' is not a duration; write a number and a unit (ms, s, m, h), "
                        + "e.g. 250ms, 90s, 10m, 1.5h or 86m30s");
    }

    @Provide
    Arbitrary<String> shippedFile() {
        try (Stream<Path> files = Files.list(Path.of("..", "scenarios"))) {
            List<String> texts = files.filter(p -> p.toString().endsWith(".yaml"))
                    .sorted()
                    .map(ScenarioLoaderBadInputProperties::read)
                    .toList();
            assertThat(texts).isNotEmpty();
            return Arbitraries.of(texts);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Provide
    Arbitrary<Double> fraction() {
        return Arbitraries.doubles().between(0, true, 1, false);
    }

    @Provide
    Arbitrary<String> randomYaml() {
        Arbitrary<String> line = Arbitraries.oneOf(
                Arbitraries.strings().ofMaxLength(30),
                Arbitraries.strings().withChars(":-[]{}&*!|>'\"%@` \t#,?\n").ofMaxLength(20),
                Arbitraries.of(
                        "name: x",
                        "cluster: {brokers: 3}",
                        "topics: [{name: t, partitions: 6, produceMBps: 1}]",
                        "timeline: {end: 30m, events: [{at: 5m, restart: {broker: 0, down: 1m}}]}",
                        "a: &x [1]",
                        "b: *x",
                        "c: *missing",
                        "name: !!binary AAAA",
                        "seed: 0x10",
                        "seed: .nan",
                        "--- ",
                        "...",
                        "cluster: {brokers: 1e308}",
                        "cluster: {brokers: -3}",
                        "timeline: {end: -5m}"));
        return line.list().ofMaxSize(8).map(lines -> String.join("\n", lines));
    }

    @Provide
    Arbitrary<JsonNode> nastyNode() {
        ArrayNode deep = NODES.arrayNode();
        ArrayNode inner = deep;
        for (int i = 0; i < 200; i++) {
            inner = inner.addArray();
        }
        ObjectNode mapping = NODES.objectNode();
        mapping.put("x", 1);
        return Arbitraries.of(
                NODES.numberNode(1e308),
                NODES.numberNode(-1e308),
                NODES.numberNode(Double.NaN),
                NODES.numberNode(Long.MAX_VALUE),
                NODES.numberNode(Long.MIN_VALUE),
                NODES.numberNode(-1),
                NODES.numberNode(0),
                NODES.numberNode(BigInteger.TEN.pow(30)),
                NODES.numberNode(4_294_967_296L),
                NODES.textNode("abc"),
                NODES.textNode("-5m"),
                NODES.textNode("1e308h"),
                NODES.textNode("99999999999999999999h"),
                NODES.textNode(""),
                NODES.textNode("line\nbreak\u0000"),
                NODES.textNode("x".repeat(5000)),
                NODES.booleanNode(true),
                NODES.nullNode(),
                NODES.arrayNode(),
                mapping,
                deep);
    }

    private void assertLoadsOrClearError(String text) {
        Throwable thrown = catchThrowable(() -> loader.parse(SOURCE, text));
        if (thrown != null) {
            assertClearError(thrown, SOURCE);
        }
    }

    private static void assertClearError(Throwable thrown, String source) {
        assertThat(thrown).isExactlyInstanceOf(ScenarioException.class);
        ScenarioException e = (ScenarioException) thrown;
        assertThat(e.file()).isEqualTo(source);
        assertThat(e.getMessage()).startsWith(source + ": ");
        if (!e.field().isEmpty()) {
            // The field as the message prints it: control characters (a tab in a key, say) written as escapes.
            assertThat(e.getMessage()).contains("field '" + ConfigException.printable(e.field()) + "'");
        }
        assertThat(e.getMessage().chars().noneMatch(Character::isISOControl))
                .as("one line: %s", e.getMessage())
                .isTrue();
        assertThat(e.getMessage()).hasSizeLessThan(2000);
    }

    private static void collectLeaves(JsonNode node, JsonPointer at, List<JsonPointer> out) {
        if (node.isObject()) {
            node.properties().forEach(e -> collectLeaves(e.getValue(), at.appendProperty(e.getKey()), out));
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                collectLeaves(node.get(i), at.appendIndex(i), out);
            }
        } else {
            out.add(at);
        }
    }

    private static String nestedMapping(int depth) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < depth; i++) {
            sb.append(" ".repeat(i + 1)).append("k").append(":\n");
        }
        return sb.toString();
    }

    private static String shipped(String name) throws IOException {
        return Files.readString(Path.of("..", "scenarios", name));
    }

    private static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
