package io.leaderpacer.simulator.scenario;

import io.leaderpacer.simulator.model.ClusterLayout;
import io.leaderpacer.simulator.sim.RandomStreams;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** Scenario inputs as an operator knows them: a backlog in bytes, partition sizes from a CSV, producer acks. */
class OperatorInputsTest {

    private static String scenario(String topicExtra) {
        return String.join(
                "\n",
                "name: ops",
                "cluster: {brokers: 3}",
                "topics:",
                "  - name: t",
                "    partitions: 3",
                "    produceMBps: 0",
                topicExtra,
                "timeline: {end: 10m, events: [{at: 2m, restart: {broker: 0, down: 1m}}]}",
                "");
    }

    @Test
    void backlogInBytes_isSpreadByItsSkewAndAddsUp() {
        Scenario s = new ScenarioLoader()
                .parse(
                        "ops.yaml",
                        scenario("    backlog: 3GiB\n    backlogSkew: {kind: lognormal, sigma: 1.0}\n    acks: 1"));
        TopicSpec t = s.topics().get(0);
        assertThat(t.backlog().bytes()).isEqualTo(3.0 * 1024 * 1024 * 1024);
        assertThat(t.traffic().acksAll()).isFalse();
        ClusterLayout layout = ClusterLayout.of(s, new RandomStreams(1));
        double sum = layout.backlogBytes[0] + layout.backlogBytes[1] + layout.backlogBytes[2];
        assertThat(sum).isCloseTo(t.backlog().bytes(), within(1.0));
        assertThat(layout.backlogBytes[0]).isNotEqualTo(layout.backlogBytes[1]);
        assertThat(layout.acksAll[0]).isFalse();
    }

    @Test
    void sizesCsv_givesTheBacklogItsShapeAndTotal(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("sizes.csv"), "partition,bytes\n2,3000\n0,1000\n1,2000\n");
        Path file = dir.resolve("ops.yaml");
        Files.writeString(file, scenario("    backlogSizesCsv: sizes.csv"));
        Scenario s = new ScenarioLoader().load(file);
        ClusterLayout layout = ClusterLayout.of(s, new RandomStreams(1));
        assertThat(layout.backlogBytes).containsExactly(new double[] {1000, 2000, 3000}, within(1e-6));
        assertThat(layout.acksAll[0]).isTrue();
    }

    @Test
    void sizesCsvWithAMissingPartition_namesFileAndPartition(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("sizes.csv"), "partition,bytes\n0,1000\n2,3000\n");
        Path file = dir.resolve("ops.yaml");
        Files.writeString(file, scenario("    backlogSizesCsv: sizes.csv"));
        assertThatThrownBy(() -> new ScenarioLoader().load(file))
                .hasMessageContaining("ops.yaml")
                .hasMessageContaining("topics[0].backlogSizesCsv")
                .hasMessageContaining("no row for partition 1");
    }

    @Test
    void backlogWithoutUnit_isBytes_asKafkasByteSettingsAndTheJvmReadThem() {
        TopicSpec t = new ScenarioLoader()
                .parse("ops.yaml", scenario("    backlog: 2000"))
                .topics()
                .get(0);
        assertThat(t.backlog().bytes()).isEqualTo(2000);
    }

    @Test
    void backlogThatIsNotASize_isAnErrorNamingTheField() {
        assertThatThrownBy(() -> new ScenarioLoader().parse("ops.yaml", scenario("    backlog: lots")))
                .hasMessageContaining("ops.yaml")
                .hasMessageContaining("topics[0].backlog")
                .hasMessageContaining("not a size");
    }

    @Test
    void acksOtherThanOneOrAll_isAnError() {
        assertThatThrownBy(() -> new ScenarioLoader().parse("ops.yaml", scenario("    acks: 0")))
                .hasMessageContaining("topics[0].acks")
                .hasMessageContaining("not one of [all, 1]");
    }
}
