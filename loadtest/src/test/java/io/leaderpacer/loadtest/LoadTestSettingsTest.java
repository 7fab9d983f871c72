package io.leaderpacer.loadtest;

import io.leaderpacer.loadtest.testbed.ShutdownMode;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LoadTestSettingsTest {

    private static LoadTestSettings withCatchUpTopic(String name) {
        return LoadTestSettings.builder()
                .partitions(6, 6)
                .catchUpTopic(name)
                .policies(List.of(NamedPolicy.parse("immediate", 5, 2)))
                .out(Path.of("out"))
                .build();
    }

    @Test
    void theDefaultCatchUpTopic_sortsBeforeTheLoadTopic_soItsPartitionsComeFirstInTheAgentsOrder() {
        assertThat(LoadTestSettings.CATCH_UP_TOPIC).isLessThan(LoadTestSettings.LOAD_TOPIC);
        assertThat("pacer-loadtest-z-catchup").isGreaterThan(LoadTestSettings.LOAD_TOPIC);
    }

    @Test
    void aCatchUpTopicOfItsOwn_isNamedInTheSettingsPrintedBeforeTheRun() {
        assertThat(withCatchUpTopic("pacer-loadtest-z-catchup").describe("a cluster", "none"))
                .anySatisfy(line ->
                        assertThat(line).startsWith("topics").contains("pacer-loadtest-z-catchup: 6 partitions"));
    }

    @Test
    void aCatchUpTopicThatKafkaWouldRefuse_isRejected_namingTheSetting() {
        assertThatThrownBy(() -> withCatchUpTopic("bad name"))
                .isInstanceOf(SettingException.class)
                .hasMessageStartingWith("catchUpTopic must be a Kafka topic name")
                .hasMessageContaining("'bad name'");
        assertThatThrownBy(() -> withCatchUpTopic("")).hasMessageStartingWith("catchUpTopic ");
        assertThatThrownBy(() -> withCatchUpTopic("..")).hasMessageStartingWith("catchUpTopic ");
        assertThatThrownBy(() -> withCatchUpTopic("x".repeat(250))).hasMessageStartingWith("catchUpTopic ");
    }

    @Test
    void aSettingOutOfRange_onTheCommandLine_namesItsOption() {
        picocli.CommandLine cli =
                new picocli.CommandLine(new LoadTestCommand()).setCaseInsensitiveEnumValuesAllowed(true);
        StringWriter err = new StringWriter();
        cli.setErr(new PrintWriter(err));

        int code = cli.execute("--catch-up-topic", "bad name");

        assertThat(code).isNotZero();
        assertThat(err.toString())
                .contains("--catch-up-topic must be a Kafka topic name")
                .contains("'bad name'")
                .doesNotContain("catchUpTopic");
        assertThat(LoadTestDefaults.Setting.values())
                .as("every checked setting names an option of the command")
                .allSatisfy(s -> assertThat(cli.getCommandSpec().findOption(s.option()))
                        .as(s.option())
                        .isNotNull());
    }

    @Test
    void serverSettings_areNamedInTheSettingsPrintedBeforeTheRun_andAbsentWhenNone() {
        LoadTestSettings with = LoadTestSettings.builder()
                .serverSettings(java.util.Map.of("replication.quota.window.num", "2"))
                .policies(List.of(NamedPolicy.parse("immediate", 5, 2)))
                .build();

        assertThat(with.describe("a cluster", "none"))
                .anySatisfy(line -> assertThat(line).startsWith("server").contains("replication.quota.window.num=2"));
        assertThat(withCatchUpTopic("pacer-loadtest-z-catchup").describe("a cluster", "none"))
                .noneSatisfy(line -> assertThat(line).startsWith("server"));
    }

    @Test
    void aLeastTimeDown_isNamedInTheSettingsPrinted_andANegativeOneIsRefusedNamingItsOption() {
        LoadTestSettings with = LoadTestSettings.builder()
                .downFor(Duration.ofSeconds(35))
                .policies(List.of(NamedPolicy.parse("immediate", 5, 2)))
                .build();
        assertThat(with.describe("a cluster", "none"))
                .anySatisfy(line -> assertThat(line).contains("started again no sooner than 35 s after its stop"));
        assertThat(withCatchUpTopic("pacer-loadtest-z-catchup").describe("a cluster", "none"))
                .noneSatisfy(line -> assertThat(line).contains("no sooner than"));

        SettingException e = Assertions.assertThrows(
                SettingException.class,
                () -> LoadTestSettings.builder()
                        .downFor(Duration.ofSeconds(-1))
                        .policies(List.of(NamedPolicy.parse("immediate", 5, 2)))
                        .build());
        assertThat(e.option()).isEqualTo("--down-for");
        assertThat(e).hasMessageStartingWith("downFor must be >= 0");
    }

    @Test
    void aBrokerSetting_againstAnExistingCluster_isRefused_namingBothOptions() {
        StringWriter err = new StringWriter();
        picocli.CommandLine cli = new picocli.CommandLine(new LoadTestCommand());
        cli.setErr(new PrintWriter(err));

        int code = cli.execute(
                "--bootstrap-server", "127.0.0.1:1",
                "--restart-command", "true",
                "--broker-setting", "replication.quota.window.num=2");

        assertThat(code).isNotZero();
        assertThat(err.toString()).contains("--broker-setting").contains("--bootstrap-server");
    }

    @Test
    void aRollingRestart_isNamedInTheSettingsPrinted_andRefusedWithKipsWindow_namingTheOption() {
        LoadTestSettings rolling = LoadTestSettings.builder()
                .policies(List.of(NamedPolicy.parse("immediate", 5, 2)))
                .rolling(true)
                .build();
        assertThat(String.join("\n", rolling.describe("c", "s")))
                .contains("restart     every broker in turn, the next once the previous leads again");
        assertThat(String.join(
                        "\n",
                        LoadTestSettings.builder()
                                .policies(List.of(NamedPolicy.parse("immediate", 5, 2)))
                                .build()
                                .describe("c", "s")))
                .contains("restart     broker 1 (kill)");

        picocli.CommandLine cli =
                new picocli.CommandLine(new LoadTestCommand()).setCaseInsensitiveEnumValuesAllowed(true);
        StringWriter err = new StringWriter();
        cli.setErr(new PrintWriter(err));
        int code = cli.execute("--rolling", "--kip-window", "--round-limit", "12m");

        assertThat(code).isNotZero();
        assertThat(err.toString())
                .contains("--rolling measures the whole rolling restart")
                .contains("--kip-window");
    }

    @Test
    void theCommandsDefaults_andTheBuildersDefaults_areTheSameTexts() {
        picocli.CommandLine cli = new picocli.CommandLine(new LoadTestCommand());
        for (LoadTestDefaults.Setting s : LoadTestDefaults.Setting.values()) {
            if (s != LoadTestDefaults.Setting.POLICIES) {
                assertThat(cli.getCommandSpec().findOption(s.option()).defaultValueString())
                        .as(s.option())
                        .isEqualTo(s.text());
            }
        }
        assertThat(cli.getCommandSpec().findOption("--backlog").defaultValueString())
                .isEqualTo("2g");
        LoadTestSettings built = LoadTestSettings.builder()
                .policies(List.of(NamedPolicy.parse("immediate", 5, 2)))
                .build();
        assertThat(built.backlog().bytes()).isEqualTo(2L << 30);
        assertThat(built.phases().warmup().limit()).isEqualTo(Duration.ofMinutes(3));
        assertThat(built.backlog().shutdown()).isEqualTo(ShutdownMode.KILL);
        assertThat(built.out()).isEqualTo(Path.of("target/loadtest"));
    }

    @Test
    void aSettingOutOfRange_namesTheSetting_andKnowsItsOption() {
        SettingException e = Assertions.assertThrows(
                SettingException.class,
                () -> LoadTestSettings.builder()
                        .partitions(0, 6)
                        .policies(List.of(NamedPolicy.parse("immediate", 5, 2)))
                        .build());
        assertThat(e).hasMessage("loadPartitions must be at least 1, got 0");
        assertThat(e.setting()).isEqualTo("loadPartitions");
        assertThat(e.option()).isEqualTo("--partitions");
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
