package io.leaderpacer.cli.demo;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class DemoTopicTest {

    @Test
    void layout_givesEveryBrokerTheSameNumberOfPreferredPartitions() {
        Map<Integer, List<Integer>> layout = DemoTopic.layout(300, 3);

        Map<Integer, Integer> preferred = new HashMap<>();
        layout.values().forEach(r -> preferred.merge(r.get(0), 1, Integer::sum));
        assertThat(preferred).containsExactlyInAnyOrderEntriesOf(Map.of(0, 100, 1, 100, 2, 100));
    }

    @Test
    void layout_placesThreeDistinctReplicasOnEveryPartition() {
        DemoTopic.layout(300, 3).values().forEach(r -> assertThat(new HashSet<>(r)).hasSize(3));
    }

    @Test
    void stoppedBroker_failsOverHalfToEachOtherBroker() {
        Map<Integer, Integer> failover = new HashMap<>();
        DemoTopic.layout(300, 3).forEach((p, r) -> {
            if (r.get(0) == 1) {
                failover.merge(r.get(1), 1, Integer::sum);
            }
        });

        assertThat(failover).containsExactlyInAnyOrderEntriesOf(Map.of(0, 50, 2, 50));
    }

    @Test
    void preferredBroker_matchesTheLayout() {
        DemoTopic.layout(30, 3).forEach((p, r) -> assertThat(DemoTopic.preferredBroker(p, 3)).isEqualTo(r.get(0)));
    }
}
