package io.leaderpacer.agent.dynamic;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ConfigAssignmentsTest {

    @Test
    void severalPairs_keepTheirOrder() {
        assertThat(ConfigAssignments.parseAdd(List.of(
                        "leader.imbalance.election.algorithm=wait-for-sync,leader.imbalance.election.max.per.run=50")))
                .containsExactly(
                        Map.entry("leader.imbalance.election.algorithm", "wait-for-sync"),
                        Map.entry("leader.imbalance.election.max.per.run", "50"));
    }

    @Test
    void bracketedList_asKafkaConfigsWritesIt() {
        assertThat(ConfigAssignments.parseAdd(
                        List.of("preferred.leader.deprioritized.list=[1,2],leader.imbalance.election.max.per.run=5")))
                .containsEntry("preferred.leader.deprioritized.list", "1,2")
                .containsEntry("leader.imbalance.election.max.per.run", "5");
    }

    @Test
    void unbracketedList_continuesThePreviousValue() {
        assertThat(ConfigAssignments.parseAdd(List.of("preferred.leader.deprioritized.list=1,2,3")))
                .containsExactly(Map.entry("preferred.leader.deprioritized.list", "1,2,3"));
    }

    @Test
    void emptyValue_isKept() {
        assertThat(ConfigAssignments.parseAdd(List.of("preferred.leader.deprioritized.list=")))
                .containsEntry("preferred.leader.deprioritized.list", "");
    }

    @Test
    void repeatedOption_isMerged() {
        assertThat(ConfigAssignments.parseAdd(List.of("a.b=1", "c.d=2"))).containsOnlyKeys("a.b", "c.d");
    }

    @Test
    void pieceWithoutEquals_isRefusedNamingIt() {
        assertThatThrownBy(() -> ConfigAssignments.parseAdd(List.of("wait-for-sync")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'wait-for-sync' is not key=value");
    }

    @Test
    void keyGivenTwice_isRefused() {
        assertThatThrownBy(() -> ConfigAssignments.parseAdd(List.of("a.b=1,a.b=2")))
                .hasMessageContaining("key 'a.b' is given twice");
    }

    @Test
    void missingKey_isRefused() {
        assertThatThrownBy(() -> ConfigAssignments.parseAdd(List.of("=5"))).hasMessageContaining("a key is missing");
    }

    @Test
    void deleteList_splitsOnCommas() {
        assertThat(ConfigAssignments.parseDelete(List.of("a.b, c.d"))).containsExactly("a.b", "c.d");
    }

    @Test
    void deleteWithValue_isRefused() {
        assertThatThrownBy(() -> ConfigAssignments.parseDelete(List.of("a.b=1")))
                .hasMessageContaining("'a.b=1' is not a key name");
        assertThatThrownBy(() -> ConfigAssignments.parseDelete(List.of("a.b,")))
                .hasMessageContaining("an empty key name");
    }
}
