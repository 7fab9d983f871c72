package io.leaderpacer.cli;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Kafka commands the documentation and the agent's messages tell an operator to run use Kafka 4.3's current
 * options, not ones it reports as deprecated or has removed.
 */
class KafkaCommandsInDocsTest {

    /** The project's root, seen from this module's directory. */
    private static final Path ROOT = Path.of("..");

    @ParameterizedTest
    @ValueSource(
            strings = {
                "--property print.", // kafka-console-consumer.sh: --formatter-property since 4.1, --property deprecated
                "--zookeeper", // removed with ZooKeeper in 4.0
                "--broker-list", // removed in 4.0: --bootstrap-server
                "--bootstrap-servers "
            }) // not an option of any Kafka tool
    void noDocumentOrMessage_usesAnOutdatedKafkaOption(String outdated) throws IOException {
        List<Path> texts = new ArrayList<>(List.of(ROOT.resolve("README.md")));
        try (Stream<Path> docs = Files.walk(ROOT.resolve("docs"));
                Stream<Path> agent = Files.walk(ROOT.resolve("agent/src/main/java"))) {
            docs.filter(p -> p.toString().endsWith(".md")).forEach(texts::add);
            agent.filter(p -> p.toString().endsWith(".java")).forEach(texts::add);
        }
        assertThat(texts).hasSizeGreaterThan(5);
        for (Path text : texts) {
            assertThat(Files.readString(text).replace("\n", " "))
                    .as(text.toString())
                    .doesNotContain(outdated);
        }
    }
}
