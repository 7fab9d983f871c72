package io.leaderpacer.loadtest;

import io.leaderpacer.loadtest.steady.WarmUpSettings;
import io.leaderpacer.loadtest.testbed.ShutdownMode;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LoadTestSettingsTest {

    private static LoadTestSettings withCatchUpTopic(String name) {
        return new LoadTestSettings(3, 1, 6, 6, 50, 100, 1L << 20, 1.0, 1, ShutdownMode.KILL,
                new WarmUpSettings(Duration.ofSeconds(1), Duration.ofSeconds(1)), Duration.ofSeconds(5), Duration.ofSeconds(5), Duration.ofSeconds(10), 1,
                List.of(NamedPolicy.parse("immediate", 5, 2)), false, 0.5, "256m", 2, name, Path.of("out"));
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
    void aCatchUpTopicThatKafkaWouldRefuse_isRejected_namingTheOption() {
        assertThatThrownBy(() -> withCatchUpTopic("bad name")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--catch-up-topic").hasMessageContaining("'bad name'");
        assertThatThrownBy(() -> withCatchUpTopic("")).hasMessageContaining("--catch-up-topic");
        assertThatThrownBy(() -> withCatchUpTopic("..")).hasMessageContaining("--catch-up-topic");
        assertThatThrownBy(() -> withCatchUpTopic("x".repeat(250))).hasMessageContaining("--catch-up-topic");
    }

    @Test
    void preferredEstimate_countsTheOffsetsTopicOfTheClustersTheLoadTestStarts() {
        assertThat(LoadTestSettings.estimatedPreferred(3, 60, 240)).isEqualTo((60 + 240 + 5) / 3);
        assertThat(LoadTestSettings.estimatedPreferred(3, 30, 120)).isEqualTo((30 + 120 + 5) / 3);
    }

    @Test
    void theLoadTopicAsCatchUpTopic_isRejected() {
        assertThatThrownBy(() -> withCatchUpTopic(LoadTestSettings.LOAD_TOPIC))
                .hasMessageContaining("--catch-up-topic must not be the load topic");
    }
}
