package io.leaderpacer.engine;

import io.leaderpacer.engine.cluster.BrokerState;
import io.leaderpacer.engine.cluster.ClusterSnapshot;
import io.leaderpacer.engine.cluster.PartitionState;
import io.leaderpacer.engine.config.ConfigKey;
import io.leaderpacer.engine.config.PacerConfig;
import io.leaderpacer.engine.schedule.RunOutcome;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.leaderpacer.engine.RecoveryClusterBuilder.ints;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The re-check extension (issue "recovery close to the physical limit"): while a broker is gated the next run comes
 * after {@code recheck.interval.ms}, and the hysteresis keeps a time floor ({@code hysteresis.min.ms}). Hand-worked
 * on two brokers: broker 0 is the preferred replica of ten partitions led by broker 1, and is out of the ISR of
 * three of them (30 % > the 20 % threshold) until it catches up to one (10 %) at 12 s after the first run.
 */
class GateRecheckTest {

    private static final long CROSSING_MS = 12_000;

    private static ClusterSnapshot twoBrokers(int outOfSync) {
        ClusterSnapshot.Builder b =
                ClusterSnapshot.builder().broker(BrokerState.active(0)).broker(BrokerState.active(1));
        for (int p = 0; p < 10; p++) {
            b.partition(PartitionState.of("t", p, ints(0, 1), p < outOfSync ? ints(1) : ints(0, 1), 1));
        }
        return b.build();
    }

    private static PacerConfig config(long recheckMs, long hysteresisMinMs) {
        PacerConfig c = PacerConfigs.with(PacerConfigs.waitForSync(20, 1000), ConfigKey.CHECK_INTERVAL_SECONDS, "300");
        c = PacerConfigs.with(c, ConfigKey.RECHECK_INTERVAL_MS, Long.toString(recheckMs));
        return PacerConfigs.with(c, ConfigKey.HYSTERESIS_MIN_MS, Long.toString(hysteresisMinMs));
    }

    /** Runs the task on its own schedule from 0 until broker 0 receives leadership; returns every run. */
    private static List<ElectionDecision> runUntilReleased(PacerConfig config) {
        List<ElectionDecision> runs = new ArrayList<>();
        BalancerMemory memory = BalancerMemory.empty();
        long now = 0;
        for (int i = 0; i < 100; i++) {
            ElectionDecision d =
                    PreferredLeaderBalancer.decide(twoBrokers(now < CROSSING_MS ? 3 : 1), config, memory, now);
            runs.add(d);
            if (d.electionsTo(0) > 0) {
                return runs;
            }
            memory = d.nextMemory();
            now += d.nextRunDelayMs();
        }
        throw new AssertionError("never released: " + runs.get(runs.size() - 1).explain());
    }

    @Test
    void recheckOff_releaseWaitsForTwoCheckIntervals() {
        List<ElectionDecision> runs = runUntilReleased(config(0, 0));

        // Runs at 0 (gated), 300 s (clear 1/2), 600 s (released): KIP-1358's schedule.
        assertThat(runs).extracting(ElectionDecision::atMs).containsExactly(0L, 300_000L, 600_000L);
        assertThat(runs.get(0).outcome()).isEqualTo(RunOutcome.GATED);
        assertThat(runs.get(0).nextRunDelayMs()).isEqualTo(300_000);
    }

    @Test
    void recheckEvery5s_releaseFollowsTheCrossingWithinTwoRechecks() {
        List<ElectionDecision> runs = runUntilReleased(config(5_000, 0));

        // 0, 5, 10 s gated; 15 s clear 1/2; 20 s released.
        assertThat(runs).extracting(ElectionDecision::atMs).containsExactly(0L, 5_000L, 10_000L, 15_000L, 20_000L);
        assertThat(runs.get(3).broker(0).verdict().phase()).isEqualTo(GatePhase.GATED);
        assertThat(runs.get(3).nextRunReason()).contains("recheck.interval.ms");
        assertThat(runs.get(4).elections()).hasSize(9);
        assertThat(runs.get(4).nextRunDelayMs())
                .as("nobody gated any more: back to the check interval")
                .isEqualTo(300_000);
    }

    @Test
    void hysteresisFloor_holdsTheReleaseUntilTheClearStreakSpansIt() {
        List<ElectionDecision> runs = runUntilReleased(config(5_000, 30_000));

        // Clear from 15 s; 20 s is the second clear run but the streak spans only 5 s; released at 45 s.
        ElectionDecision last = runs.get(runs.size() - 1);
        assertThat(last.atMs()).isEqualTo(45_000);
        assertThat(runs.get(runs.size() - 2).broker(0).verdict().reason())
                .contains("still gated (hysteresis)")
                .contains("30000");
        assertThat(last.broker(0).verdict().reason()).contains("over 30000 ms");
    }

    @Test
    void overAgainDuringTheStreak_restartsTheFloor() {
        PacerConfig config = config(5_000, 30_000);
        BalancerMemory memory = PreferredLeaderBalancer.decide(twoBrokers(3), config, BalancerMemory.empty(), 0)
                .nextMemory();
        memory = PreferredLeaderBalancer.decide(twoBrokers(1), config, memory, 5_000)
                .nextMemory();
        memory = PreferredLeaderBalancer.decide(twoBrokers(3), config, memory, 10_000)
                .nextMemory();
        memory = PreferredLeaderBalancer.decide(twoBrokers(1), config, memory, 15_000)
                .nextMemory();

        ElectionDecision at40 = PreferredLeaderBalancer.decide(twoBrokers(1), config, memory, 40_000);
        ElectionDecision at45 = PreferredLeaderBalancer.decide(twoBrokers(1), config, at40.nextMemory(), 45_000);

        assertThat(at40.broker(0).verdict().phase())
                .as("streak since 15 s spans 25 s")
                .isEqualTo(GatePhase.GATED);
        assertThat(at45.broker(0).verdict().phase()).isEqualTo(GatePhase.OPEN);
    }

    @Test
    void immediate_ignoresTheRecheckInterval() {
        PacerConfig c = PacerConfigs.with(config(5_000, 0), ConfigKey.ALGORITHM, "immediate");

        ElectionDecision d = PreferredLeaderBalancer.decide(twoBrokers(3), c, BalancerMemory.empty(), 0);

        assertThat(d.nextRunDelayMs()).isEqualTo(300_000);
    }

    @Test
    void recheckLongerThanTheCheckInterval_keepsTheCheckInterval() {
        PacerConfig c = PacerConfigs.with(config(600_000, 0), ConfigKey.CHECK_INTERVAL_SECONDS, "60");

        ElectionDecision d = PreferredLeaderBalancer.decide(twoBrokers(3), c, BalancerMemory.empty(), 0);

        assertThat(d.outcome()).isEqualTo(RunOutcome.GATED);
        assertThat(d.nextRunDelayMs()).isEqualTo(60_000);
        assertThat(d.nextRunReason()).isEqualTo("check interval");
    }
}
