package io.leaderpacer.testbed;

import org.apache.kafka.clients.producer.ProducerConfig;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What needs no cluster; the load against a real one is exercised by the embedded cluster's and the agent's tests. */
class PacedLoadTest {

    @Test
    void impossibleSettings_areRefusedWhenSet() {
        PacedLoad.Builder b = PacedLoad.builder("127.0.0.1:1", "t");
        assertThatThrownBy(() -> b.recordsPerSecond(0)).hasMessageContaining("recordsPerSecond must be >= 1");
        assertThatThrownBy(() -> b.recordBytes(-1)).hasMessageContaining("recordBytes must be >= 0");
        assertThatThrownBy(() -> b.tick(Duration.ZERO)).hasMessageContaining("tick must be at least 1 ms");
        assertThatThrownBy(() -> b.producerGroups(new int[0], null)).hasMessageContaining("at least one partition");
    }

    @Test
    void unreachableCluster_startFailsNamingThePartitionItCouldNotPrime() {
        try (PacedLoad load = PacedLoad.builder("127.0.0.1:1", "nowhere")
                .producerProperty(ProducerConfig.MAX_BLOCK_MS_CONFIG, "200")
                .producerGroups(new int[] {0, 1}, "paced-load-test-")
                .build()) {
            assertThatThrownBy(load::start)
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("could not prime partition nowhere-0");
        }
    }
}
