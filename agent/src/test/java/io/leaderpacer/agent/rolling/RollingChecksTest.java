package io.leaderpacer.agent.rolling;

import io.leaderpacer.engine.cluster.BrokerState;
import io.leaderpacer.engine.cluster.ClusterSnapshot;
import io.leaderpacer.engine.cluster.PartitionState;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** Hand-worked: when a cluster has recovered from a restart, and when restarting a broker is safe. */
class RollingChecksTest {

    /** Brokers 0-2, all up unless listed as fenced; partitions t-0 (preferred 0), t-1 (1), t-2 (2), RF 3. */
    private static ClusterSnapshot cluster(Set<Integer> fenced, PartitionState... partitions) {
        ClusterSnapshot.Builder b = ClusterSnapshot.builder();
        for (int id = 0; id < 3; id++) {
            b.broker(new BrokerState(id, fenced.contains(id), false));
        }
        for (PartitionState p : partitions) {
            b.partition(p);
        }
        return b.build();
    }

    private static PartitionState p(int partition, int[] replicas, int[] isr, int leader) {
        return PartitionState.of("t", partition, replicas, isr, leader);
    }

    private static final int[] ALL = {0, 1, 2};

    @Test
    void everyBrokerUpInEveryIsrAndLeading_isRecovered() {
        ClusterSnapshot c = cluster(
                Set.of(),
                p(0, new int[] {0, 1, 2}, ALL, 0),
                p(1, new int[] {1, 2, 0}, ALL, 1),
                p(2, new int[] {2, 0, 1}, ALL, 2));

        assertThat(Recovered.of(c, Set.of(), false).ok()).isTrue();
    }

    @Test
    void aBrokerUpButOutOfAnIsr_notLeadingYet_orPacingStillOwningAThrottle_isNotRecovered_andSaysWhich() {
        ClusterSnapshot c = cluster(
                Set.of(),
                p(0, new int[] {0, 1, 2}, ALL, 0),
                p(1, new int[] {1, 2, 0}, new int[] {2, 0}, 2),
                p(2, new int[] {2, 0, 1}, ALL, 0));

        Recovered.Verdict v = Recovered.of(c, Set.of(), true);

        assertThat(v.ok()).isFalse();
        assertThat(v.missing())
                .containsExactly(
                        "broker 1 is out of the ISR of 1 partition: t-1",
                        "broker 2 does not lead yet 1 partition: t-2 (it is their preferred leader; the agent hands"
                                + " leadership back at its pace)",
                        "catch-up pacing still owns replication throttles (pacer throttles lists them)");
    }

    @Test
    void aDeprioritizedBroker_isNotExpectedToLead() {
        // Broker 2 is deprioritized (KIP-491): t-2's leader is its next replica, 0, as the agent gives it.
        ClusterSnapshot c = cluster(
                Set.of(),
                p(0, new int[] {0, 1, 2}, ALL, 0),
                p(1, new int[] {1, 2, 0}, ALL, 1),
                p(2, new int[] {2, 0, 1}, ALL, 0));

        assertThat(Recovered.of(c, Set.of(2), false).ok()).isTrue();
        assertThat(Recovered.of(c, Set.of(), false).ok()).isFalse();
    }

    @Test
    void aFencedBroker_isNotRecovered() {
        ClusterSnapshot c = cluster(
                Set.of(2),
                p(0, new int[] {0, 1, 2}, new int[] {0, 1}, 0),
                p(1, new int[] {1, 2, 0}, new int[] {1, 0}, 1),
                p(2, new int[] {2, 0, 1}, new int[] {0, 1}, 0));

        assertThat(Recovered.of(c, Set.of(), false).missing().get(0))
                .isEqualTo("brokers not up (fenced, stopping or gone): [2]");
    }

    @Test
    void restartingABroker_isSafe_whenNoOtherRecovers_andEveryIsrItIsInKeepsItsMinimum() {
        ClusterSnapshot c = cluster(
                Set.of(),
                p(0, new int[] {0, 1, 2}, ALL, 0),
                p(1, new int[] {1, 2, 0}, ALL, 1),
                p(2, new int[] {2, 0, 1}, ALL, 2));

        assertThat(RestartSafety.of(c, 1, Map.of("t", 2)).ok()).isTrue();
    }

    @Test
    void restartingABroker_isNotSafe_whileAnotherIsOutOfAnIsr_orWhenAPartitionWouldFallUnderItsMinimum() {
        // Broker 2 is still out of t-1's ISR: restarting broker 1 would leave t-0 with 0 and 2, fine, but t-1 with
        // its ISR {1, 0} down to {0}, under min.insync.replicas 2.
        ClusterSnapshot c = cluster(
                Set.of(),
                p(0, new int[] {0, 1, 2}, ALL, 0),
                p(1, new int[] {1, 2, 0}, new int[] {1, 0}, 1),
                p(2, new int[] {2, 0, 1}, ALL, 2));

        Recovered.Verdict v = RestartSafety.of(c, 1, Map.of("t", 2));

        assertThat(v.ok()).isFalse();
        assertThat(v.missing())
                .containsExactly(
                        "brokers still recovering (down, or out of an ISR): [2]; wait for pacer await-recovery",
                        "without broker 1, these would be under their min.insync.replicas and refuse acks=all writes:"
                                + " 1 partition: t-1");
        assertThat(RestartSafety.of(c, 1, Map.of("t", 1)).missing())
                .as("with min.insync.replicas 1, only the recovering broker stands in the way")
                .hasSize(1);
    }

    @Test
    void restartingABrokerTheClusterDoesNotKnow_isNotSafe() {
        ClusterSnapshot c = cluster(Set.of(), p(0, new int[] {0, 1, 2}, ALL, 0));

        assertThat(RestartSafety.of(c, 7, Map.of()).missing())
                .containsExactly("broker 7 is not registered in the cluster");
    }

    @Test
    void aLineNamesAFewPartitions_andCountsTheRest() {
        assertThat(Recovered.named(List.of("a-0", "a-1", "a-2", "a-3", "a-4", "a-5", "a-6")))
                .isEqualTo("7 partitions: a-0, a-1, a-2, a-3, a-4, and 2 more");
    }
}
