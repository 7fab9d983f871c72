package io.leaderpacer.simulator.scenario;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ScenarioLoaderTest {

    private static final String VALID = String.join(
            "\n",
            "name: tiny",
            "seed: 7",
            "cluster: {brokers: 3}",
            "topics:",
            "  - name: t",
            "    partitions: 30",
            "    produceMBps: 30",
            "timeline:",
            "  end: 20m",
            "  events:",
            "    - at: 5m",
            "      restart: {broker: 0, down: 2m}",
            "");

    private final ScenarioLoader loader = new ScenarioLoader();

    private Scenario parse(String text) {
        return loader.parse("bad.yaml", text);
    }

    @Test
    void validFile_loadsWithDefaultsAndBaselineFirst() {
        Scenario s = parse(VALID);
        assertThat(s.name()).isEqualTo("tiny");
        assertThat(s.seed()).isEqualTo(7);
        assertThat(s.topics().get(0).layout().replicationFactor()).isEqualTo(3);
        assertThat(s.topics().get(0).traffic().produceRequestsPerSecond()).isEqualTo(60.0);
        assertThat(s.events()).containsExactly(new ScenarioEvent.Restart(300_000, 0, 120_000, false, false, 0));
        assertThat(s.policies()).extracting(PolicySpec::name).containsExactlyElementsOf(StandardPolicies.defaultSet());
        assertThat(s.model()).isEqualTo(ModelParameters.defaults());
    }

    @Test
    void everyShippedScenario_loads() throws IOException {
        Path dir = Path.of("..", "scenarios");
        // Subfolders too (recovery-speed, bench, calibration): docs quote their commands, so they must stay loadable.
        try (Stream<Path> files = Files.walk(dir)) {
            List<Path> yaml =
                    files.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
            assertThat(yaml).hasSizeGreaterThanOrEqualTo(14);
            for (Path p : yaml) {
                Scenario s = loader.load(p);
                assertThat(s.restarts()).as(p.toString()).isNotEmpty();
                assertThat(p.getFileName().toString()).startsWith(s.name());
            }
        }
    }

    @Test
    void unknownTopLevelField_namesFieldAndKnownOnes() {
        assertThatThrownBy(() -> parse(VALID + "timline: {}\n"))
                .isInstanceOf(ScenarioException.class)
                .hasMessageContaining("bad.yaml")
                .hasMessageContaining("field 'timline'")
                .hasMessageContaining("unknown field")
                .hasMessageContaining("timeline");
    }

    @Test
    void durationWithoutUnit_isRefusedWithExample() {
        ScenarioException e = catchScenario(VALID.replace("down: 2m", "down: 120"));
        assertThat(e.file()).isEqualTo("bad.yaml");
        assertThat(e.field()).isEqualTo("timeline.events[0].restart.down");
        assertThat(e.problem()).contains("'120'").contains("90s");
    }

    @Test
    void replicationFactorAboveBrokers_isRefused() {
        ScenarioException e =
                catchScenario(VALID.replace("partitions: 30", "partitions: 30\n    replicationFactor: 4"));
        assertThat(e.field()).isEqualTo("topics[0].replicationFactor");
        assertThat(e.problem()).contains("4 replicas need at least 4 brokers");
    }

    @Test
    void unknownPolicy_listsKnownPolicies() {
        ScenarioException e = catchScenario(VALID + "policies: [immediate, kip-exampel]\n");
        assertThat(e.field()).isEqualTo("policies[1]");
        assertThat(e.problem()).contains("kip-exampel").contains("kip-example-literal");
    }

    @Test
    void invalidEngineConfigInEvent_namesTheConfigKeyAndRange() {
        String text = VALID + "    - at: 6m\n      config: {leader.imbalance.election.max.per.run: \"0\"}\n";
        ScenarioException e = catchScenario(text);
        assertThat(e.field()).isEqualTo("timeline.events[1].config.leader.imbalance.election.max.per.run");
        assertThat(e.problem()).contains("between 1 and");
    }

    @Test
    void eventWithTwoTypes_isRefused() {
        String text = VALID.replace(
                "restart: {broker: 0, down: 2m}", "restart: {broker: 0, down: 2m}\n      controllerFailover:");
        ScenarioException e = catchScenario(text);
        assertThat(e.field()).isEqualTo("timeline.events[0]");
        assertThat(e.problem()).contains("exactly one of");
    }

    @Test
    void brokerOutOfRange_isRefused() {
        ScenarioException e = catchScenario(VALID.replace("broker: 0", "broker: 3"));
        assertThat(e.field()).isEqualTo("timeline.events[0].restart.broker");
        assertThat(e.problem()).contains("between 0 and 2");
    }

    @Test
    void eventBeforeOneMinute_isRefused_becauseThereWouldBeNoSteadyState() {
        ScenarioException e = catchScenario(VALID.replace("at: 5m", "at: 30s"));
        assertThat(e.field()).isEqualTo("timeline.events[0].at");
        assertThat(e.problem()).contains("steady state");
    }

    @Test
    void noRestart_isRefused() {
        ScenarioException e = catchScenario(VALID.replace("restart: {broker: 0, down: 2m}", "controllerFailover:"));
        assertThat(e.field()).isEqualTo("timeline.events");
        assertThat(e.problem()).contains("at least one restart");
    }

    @Test
    void unknownModelParameter_listsKnownOnes() {
        ScenarioException e = catchScenario(VALID + "model: {leaderServiceMillis: 2}\n");
        assertThat(e.field()).isEqualTo("model.leaderServiceMillis");
        assertThat(e.problem()).contains("leaderServiceMs");
    }

    @Test
    void modelParameterOutOfRange_isRefused() {
        ScenarioException e = catchScenario(VALID + "model: {catchUpTargetUtilisation: 1.5}\n");
        assertThat(e.field()).isEqualTo("model.catchUpTargetUtilisation");
        assertThat(e.problem()).contains("out of range");
    }

    @Test
    void explicitAssignmentWithDuplicateBroker_namesThePartition() {
        String text = VALID.replace("partitions: 30", "partitions: 2\n    assignment: [[0, 1, 2], [1, 1, 2]]");
        ScenarioException e = catchScenario(text);
        assertThat(e.field()).isEqualTo("topics[0].assignment[1]");
        assertThat(e.problem()).contains("broker 1 appears twice");
    }

    @Test
    void yamlSyntaxError_givesLineAndColumn() {
        ScenarioException e = catchScenario("name: x\ncluster: {brokers: 3\n");
        assertThat(e.problem()).contains("not valid YAML").contains("line");
    }

    @Test
    void duplicateKey_isRefused() {
        ScenarioException e = catchScenario(VALID + "name: again\n");
        assertThat(e.problem()).contains("name");
    }

    @Test
    void missingFile_namesTheFile(@TempDir Path dir) {
        Path missing = dir.resolve("nope.yaml");
        assertThatThrownBy(() -> loader.load(missing))
                .isInstanceOf(ScenarioException.class)
                .hasMessageContaining(missing.toString())
                .hasMessageContaining("no such file");
    }

    @Test
    void customPolicy_isUsableByName() {
        String text = VALID
                + String.join(
                        "\n",
                        "policies: [gentle]",
                        "customPolicies:",
                        "  - name: gentle",
                        "    config: {leader.imbalance.election.max.per.run: \"50\"}",
                        "    replicationThrottleMBps: 100",
                        "");
        Scenario s = parse(text);
        assertThat(s.policies()).extracting(PolicySpec::name).containsExactly("immediate", "gentle");
        assertThat(s.policy("gentle").config().maxPerRun()).isEqualTo(50);
        assertThat(s.policy("gentle").replicationThrottleBytesPerSecond()).isEqualTo(100e6);
    }

    @Test
    void customPolicyNotCompared_isStillFoundByName_butNotRun() {
        String text = VALID
                + String.join(
                        "\n",
                        "policies: [immediate]",
                        "customPolicies:",
                        "  - name: gentle",
                        "    config: {leader.imbalance.election.max.per.run: \"50\"}",
                        "");
        Scenario s = parse(text);
        assertThat(s.policies()).extracting(PolicySpec::name).containsExactly("immediate");
        assertThat(s.policy("gentle")).isNotNull();
        assertThat(s.policy("gentle").config().maxPerRun()).isEqualTo(50);
    }

    @Test
    void customPolicy_withARegisteredOrRetiredName_isRejected() {
        String custom = String.join(
                "\n",
                "customPolicies:",
                "  - name: %s",
                "    config: {leader.imbalance.election.max.per.run: \"50\"}",
                "");
        assertThat(catchScenario(VALID + custom.formatted("immediate")).problem())
                .contains("is a standard policy");
        assertThat(catchScenario(VALID + custom.formatted("wait-for-sync")).problem())
                .contains("the simulator's is now kip-example")
                .contains("give the custom one another name");
    }

    @Test
    void retiredPolicyName_isUnknown_andSaysWhatReplacedIt() {
        ScenarioException e = catchScenario(VALID + "policies: [baseline, wait-for-sync]\n");
        assertThat(e.problem()).contains("unknown policy 'baseline'").contains("'baseline' is now immediate");
    }

    private ScenarioException catchScenario(String text) {
        try {
            parse(text);
        } catch (ScenarioException e) {
            return e;
        }
        throw new AssertionError("expected a ScenarioException for:\n" + text);
    }
}
