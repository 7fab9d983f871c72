package io.leaderpacer.engine;

import io.leaderpacer.engine.cluster.BrokerState;
import io.leaderpacer.engine.cluster.ClusterSnapshot;
import io.leaderpacer.engine.cluster.PartitionState;
import io.leaderpacer.engine.config.ConfigKey;
import io.leaderpacer.engine.config.PacerConfig;
import org.junit.jupiter.api.Test;

import static io.leaderpacer.engine.RecoveryClusterBuilder.ints;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two readings docs/DESIGN-NOTES.md fixes, on the smallest clusters that show them: the max-wait escape is
 * decided on every run of an episode (clear runs included), and a restart ends an episode.
 */
class GateEscapeAndRestartTest {

    private static final long MINUTE = 60_000;

    /**
     * Brokers 0 and 1, ten partitions with replicas [0, 1], led by 1; broker 0 is out of the ISR of
     * the first {@code outOfSync} of them.
     */
    private static ClusterSnapshot twoBrokers(int outOfSync, boolean brokerZeroUp) {
        ClusterSnapshot.Builder b = ClusterSnapshot.builder()
                .broker(BrokerState.active(1))
                .broker(brokerZeroUp ? BrokerState.active(0) : BrokerState.fenced(0));
        for (int p = 0; p < 10; p++) {
            b.partition(PartitionState.of("t", p, ints(0, 1), p < outOfSync ? ints(1) : ints(0, 1), 1));
        }
        return b.build();
    }

    private static PacerConfig config(long maxWaitMs, int maxPerRun) {
        return PacerConfigs.with(
                PacerConfigs.waitForSync(20, maxPerRun), ConfigKey.MAX_WAIT_MS, Long.toString(maxWaitMs));
    }

    @Test
    void maxWaitRunsOutOnTheFirstClearRun_brokerIsReleasedAtOnce() {
        // Over the threshold (3/10 > 20 %) at 0, 60 and 120 s; clear (1/10) at 180 s, when max-wait (180 s)
        // has run out. docs/DESIGN-NOTES.md: released and 2 elections at 180 s (the engine used to wait for 240 s).
        PacerConfig config = config(3 * MINUTE, 2);
        BalancerMemory memory = BalancerMemory.empty();
        for (long t = 0; t < 3 * MINUTE; t += MINUTE) {
            ElectionDecision d = PreferredLeaderBalancer.decide(twoBrokers(3, true), config, memory, t);
            assertThat(d.broker(0).verdict().phase()).as("at %d ms", t).isEqualTo(GatePhase.GATED);
            memory = d.nextMemory();
        }

        ElectionDecision clear = PreferredLeaderBalancer.decide(twoBrokers(1, true), config, memory, 3 * MINUTE);

        assertThat(clear.broker(0).verdict().phase()).isEqualTo(GatePhase.OPEN);
        assertThat(clear.elections()).hasSize(2);
        assertThat(clear.nextMemory().gate(0))
                .as("it passed on its own: the episode is over")
                .isNull();
    }

    @Test
    void releasedOnAClearRunByMaxWait_thenOverAgain_startsANewEpisode() {
        PacerConfig config = config(3 * MINUTE, 2);
        BalancerMemory memory = BalancerMemory.empty();
        for (long t = 0; t < 3 * MINUTE; t += MINUTE) {
            memory = PreferredLeaderBalancer.decide(twoBrokers(3, true), config, memory, t)
                    .nextMemory();
        }
        memory = PreferredLeaderBalancer.decide(twoBrokers(1, true), config, memory, 3 * MINUTE)
                .nextMemory();

        ElectionDecision overAgain = PreferredLeaderBalancer.decide(twoBrokers(3, true), config, memory, 4 * MINUTE);

        assertThat(overAgain.broker(0).verdict().phase())
                .as("not escaped for good")
                .isEqualTo(GatePhase.GATED);
        assertThat(overAgain.broker(0).verdict().episodeStartMs()).isEqualTo(4 * MINUTE);
        assertThat(overAgain.elections()).isEmpty();
    }

    @Test
    void gatedBrokerInControlledShutdown_hasNoEpisode_isReportedInactive_andNotCountedAsGated() {
        PacerConfig config = config(30 * MINUTE, 1000);
        BalancerMemory gated = PreferredLeaderBalancer.decide(twoBrokers(5, true), config, BalancerMemory.empty(), 0)
                .nextMemory();
        ClusterSnapshot shuttingDown = twoBrokers(5, true).toBuilder()
                .replaceBroker(BrokerState.shuttingDown(0))
                .build();

        ElectionDecision d = PreferredLeaderBalancer.decide(shuttingDown, config, gated, 5 * MINUTE);

        assertThat(gated.gate(0)).isNotNull();
        assertThat(d.broker(0).verdict().phase()).isEqualTo(GatePhase.INACTIVE);
        assertThat(d.broker(0).active()).isFalse();
        assertThat(d.isGated(0)).isFalse();
        assertThat(d.gatedBrokerCount()).isZero();
        assertThat(d.nextMemory().gate(0)).isNull();
        assertThat(d.elections()).isEmpty();
    }

    @Test
    void gatedFor28Minutes_restartedFor5_backWithEveryIsrToRebuild_isGatedAFullMaxWaitAfterItsReturn() {
        // The case: the engine used to let it escape 3 minutes after its return.
        PacerConfig config = config(30 * MINUTE, 1000);
        BalancerMemory memory = BalancerMemory.empty();
        long t = 0;
        for (; t <= 28 * MINUTE; t += MINUTE) {
            memory = PreferredLeaderBalancer.decide(twoBrokers(3, true), config, memory, t)
                    .nextMemory();
        }
        for (; t <= 33 * MINUTE; t += MINUTE) {
            memory = PreferredLeaderBalancer.decide(twoBrokers(10, false), config, memory, t)
                    .nextMemory();
        }
        long back = t;
        ElectionDecision last = null;
        for (; t < back + 30 * MINUTE; t += MINUTE) {
            last = PreferredLeaderBalancer.decide(twoBrokers(7, true), config, memory, t);
            assertThat(last.broker(0).verdict().phase())
                    .as("at %d min", t / MINUTE)
                    .isEqualTo(GatePhase.GATED);
            assertThat(last.elections()).isEmpty();
            memory = last.nextMemory();
        }
        ElectionDecision escape = PreferredLeaderBalancer.decide(twoBrokers(7, true), config, memory, t);

        assertThat(last.broker(0).verdict().episodeStartMs()).isEqualTo(back);
        assertThat(escape.broker(0).verdict().phase()).isEqualTo(GatePhase.ESCAPED);
    }

    @Test
    void brokerThatRestartsAgainAndAgain_neverEscapes() {
        PacerConfig config = config(10 * MINUTE, 1000);
        BalancerMemory memory = BalancerMemory.empty();
        for (long t = 0; t < 120 * MINUTE; t += MINUTE) {
            boolean up = (t / MINUTE) % 8 != 7; // up for 7 minutes, down for 1, over and over
            ElectionDecision d = PreferredLeaderBalancer.decide(twoBrokers(up ? 5 : 10, up), config, memory, t);
            assertThat(d.broker(0).verdict().phase())
                    .as("at %d min", t / MINUTE)
                    .isIn(GatePhase.GATED, GatePhase.INACTIVE);
            assertThat(d.electionsTo(0)).isZero();
            memory = d.nextMemory();
        }
    }
}
