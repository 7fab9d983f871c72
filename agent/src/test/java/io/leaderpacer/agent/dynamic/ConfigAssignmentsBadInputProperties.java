package io.leaderpacer.agent.dynamic;

import io.leaderpacer.engine.config.ConfigKey;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Bad input to {@code pacer config --add-config / --delete-config}: any argument text parses or is refused with an
 * {@link IllegalArgumentException} whose single line names the option; well-formed assignments read back exactly.
 */
class ConfigAssignmentsBadInputProperties {

    @Property(tries = 600)
    void anyAddArguments_parseOrAreRefusedNamingTheOption(@ForAll("arguments") List<String> arguments) {
        Throwable thrown = catchThrowable(() -> ConfigAssignments.parseAdd(arguments));

        if (thrown != null) {
            assertThat(thrown).isExactlyInstanceOf(IllegalArgumentException.class);
            assertThat(thrown.getMessage()).startsWith("--add-config");
            assertOneLine(thrown.getMessage());
        }
    }

    @Property(tries = 600)
    void anyDeleteArguments_parseOrAreRefusedNamingTheOption(@ForAll("arguments") List<String> arguments) {
        Throwable thrown = catchThrowable(() -> ConfigAssignments.parseDelete(arguments));

        if (thrown != null) {
            assertThat(thrown).isExactlyInstanceOf(IllegalArgumentException.class);
            assertThat(thrown.getMessage()).startsWith("--delete-config");
            assertOneLine(thrown.getMessage());
        }
    }

    @Property(tries = 400)
    void wellFormedAssignments_readBackExactly(@ForAll("assignments") Map<String, String> assignments) {
        StringJoiner argument = new StringJoiner(",");
        assignments.forEach((k, v) -> argument.add(k + "=[" + v + "]"));

        assertThat(ConfigAssignments.parseAdd(List.of(argument.toString()))).containsExactlyEntriesOf(assignments);
    }

    @Example
    void argumentWithALineBreak_isQuotedOnOneLine() {
        // Regression: the argument was echoed as given, so a pasted line break split the error message.
        Throwable thrown = catchThrowable(() -> ConfigAssignments.parseAdd(List.of("oops\nmore")));

        assertThat(thrown).hasMessageStartingWith("--add-config 'oops\\nmore': 'oops\\nmore' is not key=value");
    }

    @Provide
    Arbitrary<List<String>> arguments() {
        Arbitrary<String> piece = Arbitraries.oneOf(
                Arbitraries.strings().ofMaxLength(30),
                Arbitraries.strings().withChars("=,[] ab.1\n").ofMaxLength(20),
                Arbitraries.of(ConfigKey.values()).map(k -> k.key() + "=" + k.defaultValue()),
                Arbitraries.just("preferred.leader.deprioritized.list=[1,2"));
        return piece.list().ofMinSize(1).ofMaxSize(3);
    }

    @Provide
    Arbitrary<Map<String, String>> assignments() {
        Arbitrary<String> key = Arbitraries.oneOf(
                Arbitraries.of(ConfigKey.names()),
                Arbitraries.strings()
                        .alpha()
                        .numeric()
                        .withChars('.', '-')
                        .ofMinLength(1)
                        .ofMaxLength(15));
        Arbitrary<String> value = Arbitraries.strings()
                .alpha()
                .numeric()
                .withChars(',', '-', '.')
                .ofMaxLength(15)
                .map(String::trim);
        return Arbitraries.maps(key, value).ofMinSize(1).ofMaxSize(5).map(LinkedHashMap::new);
    }

    private static void assertOneLine(String message) {
        assertThat(message.chars().noneMatch(Character::isISOControl))
                .as("one line: %s", message)
                .isTrue();
    }
}
