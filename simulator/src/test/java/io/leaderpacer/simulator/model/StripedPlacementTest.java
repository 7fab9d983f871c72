package io.leaderpacer.simulator.model;

import io.leaderpacer.simulator.scenario.Scenario;
import io.leaderpacer.simulator.scenario.ScenarioLoader;
import io.leaderpacer.simulator.sim.RandomStreams;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StripedPlacementTest {

    private static int[][] lists(StripedPlacement placement, int partitions, int replicationFactor) {
        int[][] out = new int[partitions][replicationFactor];
        for (int p = 0; p < partitions; p++) {
            for (int j = 0; j < replicationFactor; j++) {
                out[p][j] = placement.broker(p, j);
            }
        }
        return out;
    }

    @Test
    void fourBrokersStartZeroShiftZero_followersMoveOneFurtherInTheSecondRound() {
        // Worked by hand: round 0 puts the followers 1 and 2 brokers after the leader (offsets 1 + (0 mod 3),
        // 1 + (1 mod 3)); round 1 has shift 1, so 2 and 3 brokers after it.
        assertThat(lists(new StripedPlacement(4, 0, 0), 8, 3)).isDeepEqualTo(new int[][] {
            {0, 1, 2}, {1, 2, 3}, {2, 3, 0}, {3, 0, 1},
            {0, 2, 3}, {1, 3, 0}, {2, 0, 1}, {3, 1, 2}
        });
    }

    @Test
    void fourBrokersStartOneShiftTwo_leaderRotatesFromBrokerOneAndShiftWrapsModuloThree() {
        // Round 0, shift 2: offsets 1 + (2 mod 3) = 3 and 1 + (3 mod 3) = 1. Round 1, shift 3: offsets 1 and 2.
        assertThat(lists(new StripedPlacement(4, 1, 2), 8, 3)).isDeepEqualTo(new int[][] {
            {1, 0, 2}, {2, 1, 3}, {3, 2, 0}, {0, 3, 1},
            {1, 2, 3}, {2, 3, 0}, {3, 0, 1}, {0, 1, 2}
        });
    }

    @Test
    void fiveBrokersTenPartitions_matchesKafkasDocumentedExampleTable() {
        // The table in the Javadoc of Kafka's AdminUtils.assignReplicasToBrokers (start 0, shift 0), read by column.
        assertThat(lists(new StripedPlacement(5, 0, 0), 10, 3)).isDeepEqualTo(new int[][] {
            {0, 1, 2}, {1, 2, 3}, {2, 3, 4}, {3, 4, 0}, {4, 0, 1},
            {0, 2, 3}, {1, 3, 4}, {2, 4, 0}, {3, 0, 1}, {4, 1, 2}
        });
    }

    @Test
    void startOrShiftOutsideTheBrokers_isRefused() {
        assertThatThrownBy(() -> new StripedPlacement(4, 4, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("start 4");
        assertThatThrownBy(() -> new StripedPlacement(4, 0, -1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("shift -1");
    }

    private static final String SCENARIO = String.join(
            "\n",
            "name: tiny",
            "seed: 7",
            "cluster: {brokers: 4%s}",
            "topics:",
            "  - {name: a, partitions: 8, replicationFactor: 3, produceMBps: 8}",
            "  - {name: b, partitions: 2, replicationFactor: 3, produceMBps: 2%s}",
            "timeline:",
            "  end: 20m",
            "  events:",
            "    - {at: 5m, restart: {broker: 0, down: 2m}}",
            "");

    private static ClusterLayout layout(String placement, String assignmentOfB, long seed) {
        Scenario s = new ScenarioLoader().parse("tiny.yaml", String.format(SCENARIO, placement, assignmentOfB));
        return ClusterLayout.of(s, new RandomStreams(seed));
    }

    private static int[][] all(ClusterLayout layout) {
        int[][] out = new int[layout.partitions][];
        for (int p = 0; p < layout.partitions; p++) {
            out[p] = layout.replicas(p);
        }
        return out;
    }

    @Test
    void noPlacementGiven_isConsecutiveCountedOverAllTopics() {
        int[][] expected = new int[10][3];
        for (int p = 0; p < 10; p++) {
            for (int j = 0; j < 3; j++) {
                expected[p][j] = (p + j) % 4;
            }
        }
        assertThat(all(layout("", "", 7))).isDeepEqualTo(expected);
        assertThat(all(layout(", placement: consecutive", "", 7))).isDeepEqualTo(expected);
    }

    @Test
    void striped_isTheSameForTheSameSeed_andEachTopicStartsFromItsOwnDraw() {
        ClusterLayout one = layout(", placement: striped", "", 7);
        assertThat(all(layout(", placement: striped", "", 7))).isDeepEqualTo(all(one));
        // The start and shift come from the seed: over seeds, topic b's first partition lands on different brokers.
        Set<String> startsOfB = new HashSet<>();
        for (long seed = 0; seed < 20; seed++) {
            startsOfB.add(
                    Arrays.toString(layout(", placement: striped", "", seed).replicas(8)));
        }
        assertThat(startsOfB).hasSizeGreaterThan(1);
    }

    @Test
    void stripedWithAnExplicitAssignment_keepsTheAssignment_andLeavesTheOtherTopicAlone() {
        ClusterLayout plain = layout(", placement: striped", "", 7);
        ClusterLayout assigned = layout(", placement: striped", ", assignment: [[3, 2, 1], [2, 1, 0]]", 7);
        assertThat(assigned.replicas(8)).containsExactly(3, 2, 1);
        assertThat(assigned.replicas(9)).containsExactly(2, 1, 0);
        for (int p = 0; p < 8; p++) {
            assertThat(assigned.replicas(p)).as("partition %d of topic a", p).containsExactly(plain.replicas(p));
        }
    }
}
