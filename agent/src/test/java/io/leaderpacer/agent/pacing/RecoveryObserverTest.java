package io.leaderpacer.agent.pacing;

import io.leaderpacer.engine.cluster.PartitionState;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Hand-worked: what the observer counts for a deadline's return time. */
class RecoveryObserverTest {

    @Test
    void notLed_countsThePreferredPartitionsABrokerDoesNotLead_inSyncOrNot() {
        List<PartitionState> partitions = List.of(
                // broker 1 preferred, in sync, led by 2 (a gate withholds it): counts
                PartitionState.of("t", 0, new int[] {1, 2, 0}, new int[] {1, 2, 0}, 2),
                // broker 1 preferred, out of sync, led by 0: counts
                PartitionState.of("t", 1, new int[] {1, 0, 2}, new int[] {0, 2}, 0),
                // broker 1 preferred and leading: does not count
                PartitionState.of("t", 2, new int[] {1, 2, 0}, new int[] {1, 2, 0}, 1),
                // broker 1 preferred, no leader: counts
                PartitionState.of("t", 3, new int[] {1, 2, 0}, new int[] {}, PartitionState.NO_LEADER),
                // broker 2 preferred: does not count for broker 1
                PartitionState.of("t", 4, new int[] {2, 1, 0}, new int[] {2, 0}, 2));

        assertThat(RecoveryObserver.notLed(partitions).get(1)).isEqualTo(3);
        assertThat(RecoveryObserver.notLed(partitions).getOrDefault(2, 0)).isZero();
    }
}
