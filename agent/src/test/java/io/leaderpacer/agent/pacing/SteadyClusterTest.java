package io.leaderpacer.agent.pacing;

import io.leaderpacer.engine.cluster.BrokerState;
import io.leaderpacer.engine.cluster.ClusterSnapshot;
import io.leaderpacer.engine.cluster.PartitionState;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Hand-worked: when the canary may take a window as steady (the whole cluster in sync). */
class SteadyClusterTest {

    private static ClusterSnapshot.Builder threeBrokers(BrokerState one) {
        return ClusterSnapshot.builder()
                .broker(BrokerState.active(0))
                .broker(one)
                .broker(BrokerState.active(2));
    }

    @Test
    void everyBrokerActive_everyReplicaInSync_isSteady() {
        ClusterSnapshot s = threeBrokers(BrokerState.active(1))
                .partition(PartitionState.of("t", 0, new int[] {0, 1, 2}, new int[] {2, 0, 1}, 0))
                .build();

        assertThat(PacingLoop.inSync(s)).isTrue();
    }

    @Test
    void aReplicaOutOfItsIsr_isNotSteady() {
        ClusterSnapshot s = threeBrokers(BrokerState.active(1))
                .partition(PartitionState.of("t", 0, new int[] {0, 1, 2}, new int[] {0, 1, 2}, 0))
                .partition(PartitionState.of("t", 1, new int[] {1, 2, 0}, new int[] {2, 0}, 2))
                .build();

        assertThat(PacingLoop.inSync(s)).isFalse();
    }

    @Test
    void aFencedBroker_isNotSteady_evenWithNoReplicaOnIt() {
        ClusterSnapshot s = threeBrokers(BrokerState.fenced(1))
                .partition(PartitionState.of("t", 0, new int[] {0, 2}, new int[] {0, 2}, 0))
                .build();

        assertThat(PacingLoop.inSync(s)).isFalse();
    }
}
