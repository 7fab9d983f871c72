package io.leaderpacer.agent.config;

import io.leaderpacer.engine.config.ConfigKey;
import io.leaderpacer.engine.config.NamedKey;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Bad input to the agent's properties file: random text, truncated files, wrong types, huge values, bad escapes
 * and bytes that are not UTF-8 give a validated reading or an {@link AgentConfigException} whose single line names
 * the file (and the key when one is at fault); never another exception.
 */
class AgentPropertiesFileBadInputProperties {

    private static final String SOURCE = "agent.properties";

    /** A complete, valid file: every kind of key, so truncating it cuts through each. */
    private static final String VALID = String.join(
            "\n",
            "# the agent",
            "bootstrap.servers=b1:9092,b2:9092",
            "security.protocol=SASL_SSL",
            "sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required \\",
            "    username=\"a\" password=\"pw-123\";",
            "leader.imbalance.election.algorithm=wait-for-sync",
            "leader.imbalance.election.wait.for.sync.threshold.percent=2.5",
            "leader.imbalance.election.max.per.run=50",
            "preferred.leader.deprioritized.list=3,1",
            "pacer.http.enabled=false",
            "pacer.http.port=0",
            "pacer.request.timeout.ms=5000",
            "pacer.describe.batch.topics=20",
            "");

    /** Values chosen to break number, boolean and list parsers. */
    private static final List<String> NASTY = List.of(
            "abc",
            "1e9",
            "-0",
            "NaN",
            " 5 ",
            "99999999999999999999",
            Long.toString(Long.MAX_VALUE),
            "2147483648",
            "-1",
            "",
            "0x10",
            "5d",
            "1,,2",
            "TRUE",
            "yes",
            "١٢",
            "\\u0000",
            "\\uZZZZ",
            "\\",
            "a\\\nb",
            "\\n",
            "x".repeat(3000),
            "\uD83D\uDE00");

    @Property(tries = 400)
    void randomText_readsOrFailsWithOneLineNamingTheFile(@ForAll("randomText") String text) {
        assertReadOrClearError(text);
    }

    @Property(tries = 300)
    void validFileTruncatedAnywhere_readsOrFailsWithOneLineNamingTheFile(@ForAll("cut") int cut) {
        assertReadOrClearError(VALID.substring(0, Math.min(cut, VALID.length())));
    }

    @Property(tries = 500)
    void wrongValueForAKnownKey_isRefusedNamingTheKey(
            @ForAll("knownKey") String key, @ForAll("nastyValue") String value) {
        String text = "bootstrap.servers=b:9092\n" + key + "=" + value + "\n";

        Throwable thrown = catchThrowable(() -> AgentPropertiesFile.parse(SOURCE, text));

        if (thrown != null) {
            assertClearError(thrown);
            if (thrown.getMessage().contains("not a valid properties file")) {
                assertThat(thrown.getMessage()).endsWith("on line 2)");
            } else {
                assertThat(thrown.getMessage()).contains(key);
            }
        }
    }

    @Property(tries = 200)
    void binaryGarbageOnDisk_failsWithOneLineNamingThePath(@ForAll @Size(max = 300) byte[] bytes) throws IOException {
        Path dir = Files.createTempDirectory("pacer-fuzz");
        Path file = dir.resolve("agent.properties");
        try {
            Files.write(file, bytes);
            Throwable thrown = catchThrowable(() -> new AgentPropertiesFile(file).load());
            if (thrown != null) {
                assertThat(thrown).isExactlyInstanceOf(AgentConfigException.class);
                assertThat(thrown.getMessage()).startsWith(file + ": ");
                assertOneLine(thrown.getMessage());
            }
        } finally {
            Files.deleteIfExists(file);
            Files.delete(dir);
        }
    }

    @Example
    void notUtf8_saysSoWithTheLine() throws IOException {
        // Regression: the message was the decoder's "Input length = 1", which names neither the problem nor where.
        Path dir = Files.createTempDirectory("pacer-fuzz");
        Path file = dir.resolve("agent.properties");
        try {
            Files.write(
                    file, "bootstrap.servers=b:9092\nsasl.password=caf\u00e9\n".getBytes(StandardCharsets.ISO_8859_1));

            Throwable thrown = catchThrowable(() -> new AgentPropertiesFile(file).load());

            assertThat(thrown)
                    .isExactlyInstanceOf(AgentConfigException.class)
                    .hasMessage(
                            file + ": not UTF-8 text: byte 0xe9 on line 2 is not valid UTF-8 (save the file as UTF-8)");
        } finally {
            Files.deleteIfExists(file);
            Files.delete(dir);
        }
    }

    @Example
    void valueWithAnEscapedLineBreak_isQuotedOnOneLine() {
        // Regression: "\n" in a value (a properties escape) split the error message over two lines.
        Throwable thrown = catchThrowable(
                () -> AgentPropertiesFile.parse(SOURCE, "bootstrap.servers=b:9092\npacer.http.port=9\\n1\n"));

        assertThat(thrown)
                .isExactlyInstanceOf(AgentConfigException.class)
                .hasMessage(SOURCE + ": invalid value '9\\n1' for 'pacer.http.port': must be "
                        + AgentKey.HTTP_PORT.allowed());
    }

    @Example
    void badUnicodeEscape_namesTheFile() {
        Throwable thrown =
                catchThrowable(() -> AgentPropertiesFile.parse(SOURCE, "bootstrap.servers=b:9092\nx=\\u12G4\n"));

        // Regression: the reader's "Malformed \\uxxxx encoding." did not say where.
        assertThat(thrown)
                .isExactlyInstanceOf(AgentConfigException.class)
                .hasMessage(SOURCE + ": not a valid properties file (Malformed \\uxxxx encoding. on line 2)");
    }

    @Example
    void duplicatedKey_lastOneWinsAsInKafkasOwnFiles() {
        AgentProperties p = AgentPropertiesFile.parse(
                SOURCE,
                "bootstrap.servers=b:9092\nleader.imbalance.election.max.per.run=5\nleader.imbalance.election.max.per.run=7\n");

        assertThat(p.policy().maxPerRun()).isEqualTo(7);
    }

    @Provide
    Arbitrary<String> randomText() {
        Arbitrary<String> line = Arbitraries.oneOf(
                Arbitraries.strings().ofMaxLength(40),
                Arbitraries.strings().withChars("=:\\#! \t\nu0123456789abcdefG").ofMaxLength(30),
                knownKey().flatMap(k -> nastyValue().map(v -> k + "=" + v)),
                Arbitraries.just("bootstrap.servers=b:9092"));
        return line.list().ofMaxSize(8).map(lines -> String.join("\n", lines));
    }

    @Provide
    Arbitrary<Integer> cut() {
        return Arbitraries.integers().between(0, VALID.length());
    }

    @Provide
    Arbitrary<String> knownKey() {
        List<String> keys = new ArrayList<>(ConfigKey.names());
        keys.addAll(NamedKey.names(AgentKey.class));
        keys.add("leader.imbalance.election.max.per.rum");
        keys.add("pacer.http.prot");
        return Arbitraries.of(keys);
    }

    @Provide
    Arbitrary<String> nastyValue() {
        return Arbitraries.oneOf(
                Arbitraries.of(NASTY),
                Arbitraries.strings().ofMaxLength(20),
                Arbitraries.longs().map(Object::toString));
    }

    private static void assertReadOrClearError(String text) {
        Throwable thrown = catchThrowable(() -> AgentPropertiesFile.parse(SOURCE, text));
        if (thrown != null) {
            assertClearError(thrown);
        }
    }

    private static void assertClearError(Throwable thrown) {
        assertThat(thrown).isExactlyInstanceOf(AgentConfigException.class);
        assertThat(thrown.getMessage()).startsWith(SOURCE + ": ");
        assertOneLine(thrown.getMessage());
    }

    private static void assertOneLine(String message) {
        assertThat(message.chars().noneMatch(Character::isISOControl))
                .as("one line, no control characters: %s", message)
                .isTrue();
        assertThat(message).hasSizeLessThan(2000);
    }
}
