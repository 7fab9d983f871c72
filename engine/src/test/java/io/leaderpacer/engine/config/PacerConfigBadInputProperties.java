package io.leaderpacer.engine.config;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.GenerationMode;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Bad input to the policy's configuration: whatever keys and values arrive (random text, wrong types, overflow,
 * unicode, unknown keys), the answer is a valid configuration or a {@link ConfigException} whose one-line message
 * names the key and the value; never another exception, and an update that is refused changes nothing.
 */
class PacerConfigBadInputProperties {

    /** Values chosen to break number and list parsers. */
    private static final List<String> NASTY = List.of(
            "abc",
            "1e9",
            "-0",
            "-0.0",
            "NaN",
            "Infinity",
            "-Infinity",
            " 5 ",
            "99999999999999999999",
            Long.toString(Long.MAX_VALUE),
            Long.toString(Long.MIN_VALUE),
            "9223372036854775808",
            "2147483648",
            "-1",
            "0",
            "",
            " ",
            "0x10",
            "0x1p3",
            "1_000",
            "5d",
            "5f",
            "1,2,,3",
            "1,-2",
            ",",
            "1,a",
            "٣",
            "５",
            "+5",
            "1.5",
            "100.0000001",
            "1e-400",
            "1e400",
            "true",
            "null",
            "immediate ",
            "IMMEDIATE",
            "wait-for-sync\n",
            "all-preferred",
            "wall",
            "\u0000",
            "line1\nline2",
            "\t\r\n",
            "\uD83D\uDE00",
            "\uFFFF",
            "x".repeat(5000));

    @Provide
    Arbitrary<String> anyValue() {
        return Arbitraries.oneOf(
                Arbitraries.of(NASTY),
                Arbitraries.strings().ofMaxLength(30),
                Arbitraries.strings().withChars("0123456789-+.,eE xX").ofMaxLength(25),
                Arbitraries.longs().map(Object::toString),
                Arbitraries.doubles().map(Object::toString),
                Arbitraries.of(ConfigKey.values()).map(ConfigKey::defaultValue));
    }

    @Provide
    Arbitrary<String> anyKey() {
        return Arbitraries.oneOf(
                Arbitraries.of(ConfigKey.values()).map(ConfigKey::key),
                Arbitraries.of(ConfigKey.values()).map(k -> k.key() + " "),
                Arbitraries.of(ConfigKey.values()).map(k -> k.key().toUpperCase()),
                Arbitraries.strings().ofMaxLength(40),
                Arbitraries.just("leader.imbalance.check.interval.second"));
    }

    @Provide
    Arbitrary<Map<String, String>> anyUpdates() {
        Arbitrary<String> valueOrReset = Arbitraries.oneOf(anyValue(), Arbitraries.just(null));
        return Combinators.combine(anyKey(), valueOrReset)
                .as(AbstractMap.SimpleEntry::new)
                .list()
                .ofMaxSize(8)
                .map(entries -> {
                    Map<String, String> m = new HashMap<>();
                    entries.forEach(e -> m.put(e.getKey(), e.getValue()));
                    return m;
                });
    }

    @Provide
    Arbitrary<PacerConfig> validConfig() {
        return Combinators.combine(
                        Arbitraries.longs().between(1, 100_000),
                        Arbitraries.of(ElectionAlgorithm.values()),
                        Arbitraries.doubles().between(0, 100).ofScale(3),
                        Arbitraries.longs().between(0, Long.MAX_VALUE),
                        Arbitraries.integers().between(1, Integer.MAX_VALUE),
                        Arbitraries.integers().between(0, 1000).set().ofMaxSize(4),
                        Arbitraries.of(GateDenominator.values()),
                        Arbitraries.of(MaxWaitClock.values()))
                .as((interval, algorithm, threshold, maxWait, cap, list, denominator, clock) -> new PacerConfig(
                        interval,
                        algorithm,
                        threshold,
                        maxWait,
                        cap,
                        0,
                        new TreeSet<>(list),
                        denominator,
                        clock,
                        GateRecheck.OFF,
                        PacerConfig.defaults().pacing()));
    }

    @Property(tries = 1500)
    void anyUpdates_giveAConfigOrAConfigExceptionNamingKeyAndValue(
            @ForAll("validConfig") PacerConfig before, @ForAll("anyUpdates") Map<String, String> updates) {
        Map<String, String> snapshot = before.toMap();

        Throwable thrown = catchThrowable(() -> before.withUpdates(updates));

        assertThat(before.toMap()).as("the receiver never changes").isEqualTo(snapshot);
        if (thrown == null) {
            return;
        }
        assertThat(thrown).isExactlyInstanceOf(ConfigException.class);
        ConfigException e = (ConfigException) thrown;
        assertThat(updates).containsKey(e.key());
        assertThat(e.getMessage()).contains(ConfigException.printable(e.key()));
        if (e.value() != null) {
            assertThat(e.getMessage())
                    .contains(ConfigException.printable(e.value().trim()));
        }
        assertOneLine(e.getMessage());
    }

    @Property(generation = GenerationMode.EXHAUSTIVE)
    void everyNastyValueForEveryKey_isAcceptedOrRefusedOnOneLineNamingIt(
            @ForAll ConfigKey key, @ForAll("nastyValue") String value) {
        Throwable thrown = catchThrowable(() -> PacerConfig.defaults().with(key.key(), value));

        if (thrown != null) {
            assertThat(thrown).isExactlyInstanceOf(ConfigException.class);
            assertThat(((ConfigException) thrown).key()).isEqualTo(key.key());
            assertThat(thrown.getMessage())
                    .contains("'" + key.key() + "'")
                    .contains(ConfigException.printable(value.trim()));
            assertOneLine(thrown.getMessage());
        }
    }

    @Provide
    Arbitrary<String> nastyValue() {
        return Arbitraries.of(NASTY);
    }

    @Property(tries = 800)
    void oneBadValueAmongGoodOnes_leavesTheConfigExactlyAsItWas(
            @ForAll("validConfig") PacerConfig before,
            @ForAll("validConfig") PacerConfig target,
            @ForAll ConfigKey badKey,
            @ForAll("anyValue") String badValue) {
        Map<String, String> updates = new LinkedHashMap<>(target.toMap());
        updates.put(badKey.key(), badValue);
        boolean valid = catchThrowable(() -> PacerConfig.defaults().with(badKey.key(), badValue)) == null;
        Map<String, String> snapshot = before.toMap();

        Throwable thrown = catchThrowable(() -> before.withUpdates(updates));

        if (valid) {
            assertThat(thrown).isNull();
            assertThat(before.withUpdates(updates)).as("every key applied").isEqualTo(PacerConfig.fromMap(updates));
        } else {
            assertThat(thrown).isExactlyInstanceOf(ConfigException.class);
            assertThat(((ConfigException) thrown).key()).isEqualTo(badKey.key());
        }
        assertThat(before.toMap()).isEqualTo(snapshot);
    }

    @Property(tries = 500)
    void acceptedValues_roundTripThroughTheirCanonicalForm(@ForAll("anyUpdates") Map<String, String> updates) {
        PacerConfig parsed;
        try {
            parsed = PacerConfig.fromMap(updates);
        } catch (ConfigException e) {
            return;
        }

        assertThat(PacerConfig.fromMap(parsed.toMap())).isEqualTo(parsed);
    }

    @Property(tries = 300)
    void validConfigs_roundTripThroughTheirMap(@ForAll("validConfig") PacerConfig config) {
        assertThat(PacerConfig.fromMap(config.toMap())).isEqualTo(config);
    }

    @Property(tries = 300)
    void propertiesStyleLines_parseOrFailWithAConfigException(@ForAll("propertyLines") List<String> lines) {
        // What a properties reader hands over: key = everything before the first '=', value = the rest; the last
        // of duplicated keys wins, as java.util.Properties does.
        Map<String, String> map = new LinkedHashMap<>();
        for (String line : lines) {
            int eq = line.indexOf('=');
            map.put(eq < 0 ? line : line.substring(0, eq), eq < 0 ? "" : line.substring(eq + 1));
        }

        Throwable thrown = catchThrowable(() -> PacerConfig.fromMap(map));

        assertThat(thrown)
                .satisfiesAnyOf(
                        t -> assertThat(t).isNull(), t -> assertThat(t).isExactlyInstanceOf(ConfigException.class));
    }

    @Provide
    Arbitrary<List<String>> propertyLines() {
        Arbitrary<String> good = Combinators.combine(Arbitraries.of(ConfigKey.values()), anyValue())
                .as((k, v) -> k.key() + "=" + v);
        Arbitrary<String> truncated = good.flatMap(
                line -> Arbitraries.integers().between(0, line.length()).map(n -> line.substring(0, n)));
        return Arbitraries.oneOf(good, truncated, Arbitraries.strings().ofMaxLength(40))
                .list()
                .ofMaxSize(10)
                .map(ArrayList::new);
    }

    @Example
    void negativeZeroThreshold_isTheSameConfigAsZero() {
        // Regression: "-0" parsed to -0.0, printed as "0", and compared unequal to the default.
        PacerConfig parsed = PacerConfig.fromMap(Map.of(ConfigKey.THRESHOLD_PERCENT.key(), "-0"));

        assertThat(parsed).isEqualTo(PacerConfig.defaults());
        assertThat(PacerConfig.fromMap(parsed.toMap())).isEqualTo(parsed);
    }

    @Example
    void valueWithALineBreak_isQuotedOnOneLine() {
        // Regression: a value with a newline (possible through a properties escape) split the error over two lines.
        ConfigException e = (ConfigException)
                catchThrowable(() -> PacerConfig.fromMap(Map.of(ConfigKey.MAX_PER_RUN.key(), "10\n0")));

        assertThat(e.getMessage())
                .isEqualTo("Invalid value '10\\n0' for configuration "
                        + "'leader.imbalance.election.max.per.run': must be a whole number between 1 and 2147483647");
        assertThat(e.value()).isEqualTo("10\n0");
    }

    @Example
    void hugeValue_isShortenedInTheMessage() {
        // Regression: a 5,000-character value was echoed whole in the error.
        String huge = "9".repeat(5000);
        ConfigException e =
                (ConfigException) catchThrowable(() -> PacerConfig.fromMap(Map.of(ConfigKey.MAX_WAIT_MS.key(), huge)));

        assertThat(e.getMessage())
                .startsWith("Invalid value '9999")
                .contains("(5000 characters)")
                .contains("'" + ConfigKey.MAX_WAIT_MS.key() + "'")
                .hasSizeLessThan(400);
    }

    @Example
    void unknownKeyWithControlCharacters_isNamedPrintably() {
        ConfigException e =
                (ConfigException) catchThrowable(() -> PacerConfig.fromMap(Map.of("bad\u0000key\r\n", "1")));

        assertThat(e.getMessage()).startsWith("Unknown configuration 'bad\\u0000key\\r\\n'");
        assertThat(e.key()).isEqualTo("bad\u0000key\r\n");
    }

    private static void assertOneLine(String message) {
        assertThat(message).doesNotContain("\n").doesNotContain("\r");
        assertThat(message.chars().noneMatch(c -> Character.isISOControl(c)))
                .as("no control characters: %s", message)
                .isTrue();
    }
}
