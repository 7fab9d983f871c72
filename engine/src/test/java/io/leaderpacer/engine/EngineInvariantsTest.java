package io.leaderpacer.engine;

import io.leaderpacer.engine.cluster.BrokerState;
import io.leaderpacer.engine.cluster.ClusterSnapshot;
import io.leaderpacer.engine.cluster.PartitionId;
import io.leaderpacer.engine.cluster.PartitionState;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The invariants the engine checks on every run, each broken by hand: a selection that miscounts, a run over the
 * cap, an election that changes nothing or goes to a broker that cannot lead. A real run never breaks them (the
 * properties run thousands); these show that a change which did would fail loudly.
 */
class EngineInvariantsTest {

    private static final PartitionId T0 = new PartitionId("t", 0);
    private static final PartitionId T1 = new PartitionId("t", 1);

    /** Brokers 0 and 1 active, 2 fenced; both partitions led by broker 1, preferred broker 0. */
    private static final ClusterSnapshot CLUSTER = ClusterSnapshot.builder()
            .broker(BrokerState.active(0))
            .broker(BrokerState.active(1))
            .broker(BrokerState.fenced(2))
            .partition(PartitionState.of("t", 0, new int[] {0, 1, 2}, new int[] {0, 1}, 1))
            .partition(PartitionState.of("t", 1, new int[] {0, 1, 2}, new int[] {0, 1}, 1))
            .build();

    @Test
    void aSelectionWhoseElectionsAreNotTheOnesCounted_isRefused() {
        List<Election> one = List.of(new Election(T0, 1, 0, 0));
        assertThatThrownBy(() -> new RunSelection(one, new int[] {0, 0}, new int[2], new int[2], 0))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("1 elections, 0 counted");
    }

    @Test
    void aSelectionsTotals_areItsPerBrokerSums() {
        RunSelection r = new RunSelection(List.of(), new int[2], new int[] {1, 2}, new int[] {0, 4}, 0);
        assertThat(r.skippedTotal()).isEqualTo(3);
        assertThat(r.deferredTotal()).isEqualTo(4);
    }

    @Test
    void aRoundRobinThatGivesABrokerMoreThanItHadElectable_isRefused() {
        List<Election> one = List.of(new Election(T0, 1, 0, 0));
        assertThatThrownBy(() -> RunSelection.roundRobin(one, new int[] {1}, new int[] {0}, new int[] {0}, 0))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("negative count at broker index 0");
    }

    @Test
    void aRunOverTheCap_isRefused() {
        List<Election> two = List.of(new Election(T0, 1, 0, 0), new Election(T1, 1, 0, 0));
        assertThatThrownBy(() -> PreferredLeaderBalancer.checkElections(CLUSTER, two, 1))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("2 elections in one run, over max.per.run 1");
        assertThatCode(() -> PreferredLeaderBalancer.checkElections(CLUSTER, two, 2))
                .doesNotThrowAnyException();
    }

    @Test
    void anElectionOfTheLeaderThePartitionHas_isRefused() {
        assertThatThrownBy(
                        () -> PreferredLeaderBalancer.checkElections(CLUSTER, List.of(new Election(T0, 1, 1, 0)), 10))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("the leader the partition has");
    }

    @Test
    void anElectionToAFencedBroker_isRefused_whileNoLeaderAsKafkaWritesIt_isNot() {
        assertThatThrownBy(
                        () -> PreferredLeaderBalancer.checkElections(CLUSTER, List.of(new Election(T0, 1, 2, 2)), 10))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("not active");
        assertThatCode(() -> PreferredLeaderBalancer.checkElections(
                        CLUSTER, List.of(new Election(T0, 1, PartitionState.NO_LEADER, 0)), 10))
                .doesNotThrowAnyException();
    }
}
