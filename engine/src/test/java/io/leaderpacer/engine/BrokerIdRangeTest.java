package io.leaderpacer.engine;

import io.leaderpacer.engine.cluster.BrokerState;
import io.leaderpacer.engine.cluster.ClusterSnapshot;
import io.leaderpacer.engine.cluster.PartitionState;
import io.leaderpacer.engine.config.ConfigKey;
import io.leaderpacer.engine.config.PacerConfig;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.leaderpacer.engine.RecoveryClusterBuilder.ints;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Any valid {@code node.id}, 0 to 2^31-1, in one cluster: per-broker tables use a compact index, so
 * the largest id costs what the smallest does (it used to throw or run out of memory).
 */
class BrokerIdRangeTest {

    private static final int BIG = 100_000_000;
    private static final int MAX = Integer.MAX_VALUE;

    /** Brokers 0, 7, 100,000,000 and 2,147,483,647; each prefers 4 partitions led by the next one, 1 out of sync. */
    private static ClusterSnapshot cluster(BrokerState... overrides) {
        int[] ids = {0, 7, BIG, MAX};
        ClusterSnapshot.Builder b = ClusterSnapshot.builder();
        for (int id : ids) {
            b.broker(BrokerState.active(id));
        }
        for (BrokerState s : overrides) {
            b.replaceBroker(s);
        }
        for (int k = 0; k < ids.length; k++) {
            int pref = ids[k];
            int f1 = ids[(k + 1) % ids.length];
            int f2 = ids[(k + 2) % ids.length];
            for (int p = 0; p < 4; p++) {
                b.partition(PartitionState.of(
                        "pref-" + pref, p, ints(pref, f1, f2), p == 0 ? ints(f1, f2) : ints(pref, f1, f2), f1));
            }
        }
        return b.build();
    }

    @Test
    void immediate_electsTheInSyncPreferredReplicaOfEveryBroker_whateverItsId() {
        ElectionDecision d =
                PreferredLeaderBalancer.decide(cluster(), PacerConfigs.immediate(1000), BalancerMemory.empty(), 0);

        assertThat(d.elections()).hasSize(12);
        for (int id : List.of(0, 7, BIG, MAX)) {
            assertThat(d.electionsTo(id)).as("broker %d", id).isEqualTo(3);
        }
    }

    @Test
    void waitForSync_gatesAndReportsEachBrokerByItsId_inAscendingOrder() {
        // 1/4 = 25 % out of sync: over 20 % for everyone; a fenced 2^31-1 is inactive.
        PacerConfig config = PacerConfigs.waitForSync(20, 1000);
        ElectionDecision d =
                PreferredLeaderBalancer.decide(cluster(BrokerState.fenced(MAX)), config, BalancerMemory.empty(), 0);

        assertThat(d.brokers()).extracting(BrokerGateReport::broker).containsExactly(0, 7, BIG, MAX);
        assertThat(d.broker(BIG).verdict().phase()).isEqualTo(GatePhase.GATED);
        assertThat(d.broker(BIG).partitions().outOfSync()).isEqualTo(1);
        assertThat(d.broker(MAX).verdict().phase()).isEqualTo(GatePhase.INACTIVE);
        assertThat(d.gatedBrokerCount()).isEqualTo(3);
        assertThat(d.nextMemory().gate(BIG)).isNotNull();
    }

    @Test
    void roundRobin_rotatesAcrossTheWholeIdRange() {
        PacerConfig config = PacerConfigs.waitForSync(100, 2);
        BalancerMemory memory = BalancerMemory.empty();
        int[] expectedFirst = {0, 7, BIG, MAX, 0};
        for (int run = 0; run < expectedFirst.length; run++) {
            ElectionDecision d = PreferredLeaderBalancer.decide(cluster(), config, memory, run * 1000L);
            assertThat(d.elections().get(0).preferredBroker()).as("run %d", run).isEqualTo(expectedFirst[run]);
            memory = d.nextMemory();
        }
    }

    @Test
    void deprioritizingTheLargestId_movesItLast() {
        PacerConfig config =
                PacerConfigs.with(PacerConfigs.immediate(1000), ConfigKey.DEPRIORITIZED_LIST, Integer.toString(MAX));
        ElectionDecision d = PreferredLeaderBalancer.decide(cluster(), config, BalancerMemory.empty(), 0);

        assertThat(d.electionsTo(MAX)).isZero();
        assertThat(d.brokers()).extracting(BrokerGateReport::broker).contains(MAX);
    }
}
