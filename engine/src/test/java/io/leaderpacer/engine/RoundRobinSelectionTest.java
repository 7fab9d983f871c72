package io.leaderpacer.engine;

import io.leaderpacer.engine.cluster.ClusterSnapshot;
import io.leaderpacer.engine.config.PacerConfig;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * KIP-1358's test plan, round-robin: eligible brokers share each capped run; gated brokers are left
 * out; the start position rotates from run to run so no broker is always first.
 */
class RoundRobinSelectionTest {

    @Test
    void twoEligibleBrokersWithThousandCandidatesEach_capTwoHundred_getHundredPlusMinusOneEach() {
        ClusterSnapshot cluster = RecoveryClusterBuilder.brokers(0, 1, 2, 3)
                .preferredBy(0, 1000, 0)
                .preferredBy(1, 1000, 0)
                .build();
        PacerConfig config = PacerConfigs.waitForSync(5, 200);

        ElectionDecision d = PreferredLeaderBalancer.decide(cluster, config, BalancerMemory.empty(), 0);

        assertThat(d.elections()).hasSize(200);
        assertThat(d.electionsTo(0)).isCloseTo(100, within(1L));
        assertThat(d.electionsTo(1)).isCloseTo(100, within(1L));
        assertThat(d.deferredByThrottle()).isEqualTo(1800);
        assertThat(d.broker(0).run().deferredByThrottle() + d.broker(1).run().deferredByThrottle())
                .isEqualTo(1800);
    }

    @Test
    void oddCap_splitsWithinOneAndAlternatesTheBrokers() {
        ClusterSnapshot cluster = RecoveryClusterBuilder.brokers(0, 1, 2, 3)
                .preferredBy(0, 1000, 0)
                .preferredBy(1, 1000, 0)
                .build();

        ElectionDecision d =
                PreferredLeaderBalancer.decide(cluster, PacerConfigs.waitForSync(5, 201), BalancerMemory.empty(), 0);

        assertThat(Math.abs(d.electionsTo(0) - d.electionsTo(1))).isEqualTo(1);
        List<Election> e = d.elections();
        for (int i = 1; i < e.size(); i++) {
            assertThat(e.get(i).preferredBroker())
                    .as("election %d", i)
                    .isNotEqualTo(e.get(i - 1).preferredBroker());
        }
    }

    @Test
    void brokerWithFewCandidates_exhaustsItsBucketAndTheOthersFillTheCap() {
        ClusterSnapshot cluster = RecoveryClusterBuilder.brokers(0, 1, 2, 3)
                .preferredBy(0, 10, 0)
                .preferredBy(1, 1000, 0)
                .build();

        ElectionDecision d =
                PreferredLeaderBalancer.decide(cluster, PacerConfigs.waitForSync(5, 200), BalancerMemory.empty(), 0);

        assertThat(d.electionsTo(0)).isEqualTo(10);
        assertThat(d.electionsTo(1)).isEqualTo(190);
        assertThat(d.moreWork()).isTrue();
    }

    @Test
    void gatedBroker_isLeftOutAndTheEligibleOnesShareTheCap() {
        ClusterSnapshot cluster = RecoveryClusterBuilder.brokers(0, 1, 2, 3, 4)
                .preferredBy(0, 1000, 0)
                .preferredBy(1, 1000, 500)
                .preferredBy(2, 1000, 0)
                .build();

        ElectionDecision d =
                PreferredLeaderBalancer.decide(cluster, PacerConfigs.waitForSync(5, 200), BalancerMemory.empty(), 0);

        assertThat(d.isGated(1)).isTrue();
        assertThat(d.electionsTo(1)).isZero();
        assertThat(d.electionsTo(0)).isEqualTo(100);
        assertThat(d.electionsTo(2)).isEqualTo(100);
        assertThat(d.skippedByGate()).isEqualTo(500);
    }

    @Test
    void startPosition_rotatesFromRunToRun() {
        // Three brokers and a cap of 4: whoever starts gets one more. Over three runs each starts once.
        ClusterSnapshot cluster = RecoveryClusterBuilder.brokers(0, 1, 2, 3)
                .preferredBy(0, 100, 0)
                .preferredBy(1, 100, 0)
                .preferredBy(2, 100, 0)
                .build();
        PacerConfig config = PacerConfigs.waitForSync(5, 4);
        BalancerMemory memory = BalancerMemory.empty();
        int[] firsts = new int[3];
        long[] totals = new long[3];
        for (int run = 0; run < 3; run++) {
            ElectionDecision d = PreferredLeaderBalancer.decide(cluster, config, memory, run * 10L);
            memory = d.nextMemory();
            firsts[run] = d.elections().get(0).preferredBroker();
            for (int b = 0; b < 3; b++) {
                totals[b] += d.electionsTo(b);
            }
        }

        assertThat(firsts).containsExactly(0, 1, 2);
        assertThat(totals).containsExactly(4, 4, 4);
    }

    @Test
    void withinABroker_candidatesAreTakenInIterationOrder() {
        ClusterSnapshot cluster = RecoveryClusterBuilder.brokers(0, 1, 2, 3)
                .preferredBy(0, 10, 0)
                .preferredBy(1, 10, 0)
                .build();

        ElectionDecision d =
                PreferredLeaderBalancer.decide(cluster, PacerConfigs.waitForSync(5, 6), BalancerMemory.empty(), 0);

        assertThat(d.elections())
                .extracting(e -> e.partition().toString())
                .containsExactly("pref-0-0", "pref-1-0", "pref-0-1", "pref-1-1", "pref-0-2", "pref-1-2");
    }
}
