package io.leaderpacer.simulator.model;

import io.leaderpacer.simulator.scenario.Scenario;
import io.leaderpacer.simulator.scenario.ScenarioLoader;
import io.leaderpacer.simulator.sim.RandomStreams;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

import java.util.BitSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The striped placement's two promises, over random cluster sizes, replication factors, starts and shifts:
 * a partition's replicas are distinct brokers, and once a topic has n (n - 1) partitions the partitions each
 * broker leads have followers on every other broker (the point of the rule: a restart spreads leadership).
 */
class StripedPlacementProperties {

    /** Checks both promises on replica lists indexed by partition; {@code spread} only when there are enough partitions. */
    private static void assertDistinctAndSpread(int brokers, int[][] replicas, boolean spread) {
        BitSet[] followersOf = new BitSet[brokers];
        for (int b = 0; b < brokers; b++) {
            followersOf[b] = new BitSet(brokers);
        }
        for (int p = 0; p < replicas.length; p++) {
            assertThat(replicas[p]).as("partition %d", p).doesNotHaveDuplicates();
            for (int j = 0; j < replicas[p].length; j++) {
                assertThat(replicas[p][j]).as("partition %d position %d", p, j).isBetween(0, brokers - 1);
                if (j > 0) {
                    followersOf[replicas[p][0]].set(replicas[p][j]);
                }
            }
        }
        if (spread) {
            for (int b = 0; b < brokers; b++) {
                assertThat(followersOf[b].cardinality())
                        .as("brokers following broker %d's partitions", b)
                        .isEqualTo(brokers - 1);
                assertThat(followersOf[b].get(b)).isFalse();
            }
        }
    }

    @Property(tries = 300)
    void anyStartAndShift_distinctReplicas_andFollowersOnEveryOtherBroker(
            @ForAll @IntRange(min = 2, max = 16) int brokers,
            @ForAll @IntRange(min = 0, max = 1_000) int rfDraw,
            @ForAll @IntRange(min = 0, max = 1_000) int startDraw,
            @ForAll @IntRange(min = 0, max = 1_000) int shiftDraw,
            @ForAll @IntRange(min = 0, max = 100) int extraPartitions) {
        int rf = 2 + rfDraw % (brokers - 1);
        StripedPlacement placement = new StripedPlacement(brokers, startDraw % brokers, shiftDraw % brokers);
        int partitions = brokers * (brokers - 1) + extraPartitions;
        int[][] replicas = new int[partitions][rf];
        for (int p = 0; p < partitions; p++) {
            for (int j = 0; j < rf; j++) {
                replicas[p][j] = placement.broker(p, j);
            }
        }
        assertDistinctAndSpread(brokers, replicas, true);
    }

    @Property(tries = 40)
    void loadedStripedScenario_distinctReplicas_andSpreadForEveryTopicLargeEnough(
            @ForAll @IntRange(min = 2, max = 9) int brokers,
            @ForAll @IntRange(min = 0, max = 1_000) int rfDraw,
            @ForAll @IntRange(min = 0, max = 40) int extraPartitions,
            @ForAll @IntRange(min = 1, max = 40) int smallTopicPartitions,
            @ForAll @LongRange(min = 0, max = 1_000_000) long seed) {
        int rf = 2 + rfDraw % (Math.min(brokers, 8) - 1); // the loader takes at most 8 replicas
        int large = brokers * (brokers - 1) + extraPartitions;
        String yaml = String.join(
                "\n",
                "name: random",
                "cluster: {brokers: " + brokers + ", placement: striped}",
                "topics:",
                "  - {name: small, partitions: " + smallTopicPartitions + ", replicationFactor: " + rf
                        + ", produceMBps: 10}",
                "  - {name: large, partitions: " + large + ", replicationFactor: " + rf + ", produceMBps: 10}",
                "timeline:",
                "  end: 20m",
                "  events:",
                "    - {at: 5m, restart: {broker: 0, down: 2m}}",
                "");
        Scenario s = new ScenarioLoader().parse("random.yaml", yaml);
        ClusterLayout layout = ClusterLayout.of(s, new RandomStreams(seed));
        for (int t = 0; t < layout.topicNames.length; t++) {
            int from = layout.topicStart[t];
            int[][] replicas = new int[layout.topicStart[t + 1] - from][];
            for (int i = 0; i < replicas.length; i++) {
                replicas[i] = layout.replicas(from + i);
            }
            assertDistinctAndSpread(brokers, replicas, replicas.length >= brokers * (brokers - 1));
        }
    }
}
