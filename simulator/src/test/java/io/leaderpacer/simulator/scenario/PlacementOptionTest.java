package io.leaderpacer.simulator.scenario;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

class PlacementOptionTest {

    private static final String TEMPLATE = String.join(
            "\n",
            "name: tiny",
            "cluster: {brokers: 3%s}",
            "topics:",
            "  - {name: t, partitions: 30, produceMBps: 30}",
            "timeline:",
            "  end: 20m",
            "  events:",
            "    - {at: 5m, restart: {broker: 0, down: 2m}}",
            "");

    private static Scenario parse(String cluster) {
        return new ScenarioLoader().parse("bad.yaml", String.format(TEMPLATE, cluster));
    }

    private static ScenarioException refused(String cluster) {
        return catchThrowableOfType(ScenarioException.class, () -> parse(cluster));
    }

    @Test
    void noPlacement_isConsecutive() {
        assertThat(parse("").placement()).isEqualTo(Placement.CONSECUTIVE);
    }

    @Test
    void eachValue_isRead() {
        assertThat(parse(", placement: consecutive").placement()).isEqualTo(Placement.CONSECUTIVE);
        assertThat(parse(", placement: striped").placement()).isEqualTo(Placement.STRIPED);
    }

    @Test
    void unknownPlacement_namesFileFieldValueAndChoicesOnOneLine() {
        ScenarioException e = refused(", placement: stripped");
        assertThat(e.file()).isEqualTo("bad.yaml");
        assertThat(e.field()).isEqualTo("cluster.placement");
        assertThat(e.problem()).contains("'stripped'").contains("consecutive").contains("striped");
        assertThat(e.getMessage())
                .startsWith("bad.yaml: field 'cluster.placement': ")
                .doesNotContain("\n");
    }

    @Test
    void placementNotAString_isRefused() {
        ScenarioException e = refused(", placement: [striped]");
        assertThat(e.field()).isEqualTo("cluster.placement");
    }

    @Test
    void stripedWithRacks_isRefused_becauseTheRuleIsRackUnaware() {
        ScenarioException e = refused(", racks: 3, placement: striped");
        assertThat(e.field()).isEqualTo("cluster.placement");
        assertThat(e.problem()).contains("rack-unaware");
    }
}
