package io.leaderpacer.loadtest;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LoadTestSettingsTest {

    private static LoadTestSettings withCatchUpTopic(String name) {
        return LoadTestSettings.builder().partitions(6, 6).catchUpTopic(name)
                .policies(List.of(NamedPolicy.parse("immediate", 5, 2))).out(Path.of("out")).build();
    }

    @Test
    void theDefaultCatchUpTopic_sortsBeforeTheLoadTopic_soItsPartitionsComeFirstInTheAgentsOrder() {
        assertThat(LoadTestSettings.CATCH_UP_TOPIC).isLessThan(LoadTestSettings.LOAD_TOPIC);
        assertThat("pacer-loadtest-z-catchup").isGreaterThan(LoadTestSettings.LOAD_TOPIC);
    }

    @Test
    void aCatchUpTopicOfItsOwn_isNamedInTheSettingsPrintedBeforeTheRun() {
        assertThat(withCatchUpTopic("pacer-loadtest-z-catchup").describe("a cluster", "none"))
                .anySatisfy(line -> assertThat(line).startsWith("topics").contains("pacer-loadtest-z-catchup: 6 partitions"));
    }

    @Test
    void aCatchUpTopicThatKafkaWouldRefuse_isRejected_namingTheSetting() {
        assertThatThrownBy(() -> withCatchUpTopic("bad name")).isInstanceOf(SettingException.class)
                .hasMessageStartingWith("catchUpTopic must be a Kafka topic name").hasMessageContaining("'bad name'");
        assertThatThrownBy(() -> withCatchUpTopic("")).hasMessageStartingWith("catchUpTopic ");
        assertThatThrownBy(() -> withCatchUpTopic("..")).hasMessageStartingWith("catchUpTopic ");
        assertThatThrownBy(() -> withCatchUpTopic("x".repeat(250))).hasMessageStartingWith("catchUpTopic ");
    }

    @Test
    void aSettingOutOfRange_onTheCommandLine_namesItsOption() {
        picocli.CommandLine cli = new picocli.CommandLine(new LoadTestCommand()).setCaseInsensitiveEnumValuesAllowed(true);
        java.io.StringWriter err = new java.io.StringWriter();
        cli.setErr(new java.io.PrintWriter(err));

        int code = cli.execute("--catch-up-topic", "bad name");

        assertThat(code).isNotZero();
        assertThat(err.toString()).contains("--catch-up-topic must be a Kafka topic name").contains("'bad name'")
                .doesNotContain("catchUpTopic");
        assertThat(LoadTestCommand.OPTION_OF.keySet()).as("every checked setting has its option")
                .contains("brokers", "restartedBroker", "cpuCapCores", "loadPartitions", "catchUpPartitions",
                        "catchUpTopic", "recordsPerSecond", "recordBytes", "backlogBytes", "backlogSigma", "window",
                        "steady", "roundLimit", "policies", "rounds", "checkIntervalSeconds");
    }

    @Test
    void preferredEstimate_countsTheOffsetsTopicOfTheClustersTheLoadTestStarts() {
        assertThat(LoadTestSettings.estimatedPreferred(3, 60, 240)).isEqualTo((60 + 240 + 5) / 3);
        assertThat(LoadTestSettings.estimatedPreferred(3, 30, 120)).isEqualTo((30 + 120 + 5) / 3);
    }

    @Test
    void theLoadTopicAsCatchUpTopic_isRejected() {
        assertThatThrownBy(() -> withCatchUpTopic(LoadTestSettings.LOAD_TOPIC))
                .hasMessageContaining("catchUpTopic must not be the load topic");
    }
}
