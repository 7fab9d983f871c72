package io.leaderpacer.engine;

import io.leaderpacer.engine.cluster.ClusterSnapshot;
import io.leaderpacer.engine.cluster.PartitionState;
import io.leaderpacer.engine.config.PacerConfig;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.leaderpacer.engine.RecoveryClusterBuilder.ints;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * KIP-1358's test plan: {@code immediate} (the default) keeps the pre-KIP behaviour, first come first served and blind
 * to the gate's settings. That it makes exactly Kafka's decisions, with mixed in-sync / out-of-sync brokers and
 * several recovering brokers, is checked against Kafka's own controller code in
 * {@link ImmediateKafkaEquivalenceTest} and {@link ImmediateKafkaEquivalenceProperties}.
 */
class ImmediateLegacyBehaviourTest {

    /** Several recovering brokers in interleaved iteration order, some partitions fenced or shutting down. */
    static ClusterSnapshot mixedRecovery() {
        RecoveryClusterBuilder b = RecoveryClusterBuilder.brokers(0, 1, 2, 3, 4, 5, 6)
                .shuttingDown(5)
                .fenced(6);
        // Recovering brokers 0 (mostly caught up), 1 (half caught up), 2 (nothing caught up),
        // added in slices so their partitions interleave in iteration order.
        for (int slice = 0; slice < 10; slice++) {
            b.preferredBy(0, 30, slice < 1 ? 30 : 0)
                    .preferredBy(1, 30, slice % 2 == 0 ? 30 : 0)
                    .preferredBy(2, 30, 30)
                    .balancedFor(3, 5);
        }
        // Partitions whose preferred replica is shutting down or fenced, some whose leader is invalid too.
        for (int i = 0; i < 20; i++) {
            b.partition(PartitionState.of("odd", i, ints(5, 4, 3), ints(5, 4, 3), i % 2 == 0 ? 4 : 5));
            b.partition(
                    PartitionState.of("down", i, ints(6, 3, 4), ints(3, 4), i % 3 == 0 ? PartitionState.NO_LEADER : 3));
        }
        return b.build();
    }

    @Test
    void mixedRecovery_recoveringBrokersAreElectedFirstComeFirstServed() {
        // The legacy bias KIP-1358's round-robin fixes: with a cap, iteration order decides.
        ClusterSnapshot cluster = mixedRecovery();

        ElectionDecision d =
                PreferredLeaderBalancer.decide(cluster, PacerConfigs.immediate(30), BalancerMemory.empty(), 0);

        // The first slice of broker 0 is out of sync; the first slice of broker 1 is out of sync;
        // broker 2 never is in sync: the first 30 electable are broker 0's second slice.
        assertThat(d.elections()).allSatisfy(e -> assertThat(e.newLeader()).isZero());
    }

    @Test
    void immediateIgnoresGateSettings_sameDecisionsWhateverTheThreshold() {
        ClusterSnapshot cluster = mixedRecovery();
        PacerConfig base = PacerConfigs.immediate(100);
        List<List<Election>> all = new ArrayList<>();
        for (String threshold : new String[] {"0", "5", "100"}) {
            PacerConfig config = base.with("leader.imbalance.election.wait.for.sync.threshold.percent", threshold);
            all.add(PreferredLeaderBalancer.decide(cluster, config, BalancerMemory.empty(), 0)
                    .elections());
        }

        assertThat(all.get(0)).isNotEmpty().isEqualTo(all.get(1)).isEqualTo(all.get(2));
    }
}
