package io.leaderpacer.agent.core;

import io.leaderpacer.engine.BalancerMemory;
import io.leaderpacer.engine.ElectionDecision;
import io.leaderpacer.engine.PreferredLeaderBalancer;
import io.leaderpacer.engine.cluster.BrokerState;
import io.leaderpacer.engine.cluster.ClusterSnapshot;
import io.leaderpacer.engine.cluster.PartitionState;
import io.leaderpacer.engine.config.PacerConfig;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class SlowReadTest {

    private static final String T = "t";
    /** Re-check a gated broker every 15 s; Kafka's check interval of 300 s otherwise. */
    private static final PacerConfig RECHECK = PacerConfig.fromMap(Map.of(
            "leader.imbalance.election.algorithm", "wait-for-sync",
            "leader.imbalance.election.wait.for.sync.recheck.interval.ms", "15000"));
    /** Kafka's own policy with its cap at 1 and no throttle: a capped run is followed by the next at once. */
    private static final PacerConfig AT_ONCE =
            PacerConfig.fromMap(Map.of("leader.imbalance.election.max.per.run", "1"));

    /** Broker 0 restarted and out of every ISR of its preferred partitions; broker 1 leads them. */
    private static ClusterSnapshot brokerZeroBehind() {
        return ClusterSnapshot.builder()
                .broker(BrokerState.active(0))
                .broker(BrokerState.active(1))
                .broker(BrokerState.active(2))
                .partition(PartitionState.of(T, 0, new int[] {0, 1, 2}, new int[] {1, 2}, 1))
                .partition(PartitionState.of(T, 1, new int[] {0, 2, 1}, new int[] {1, 2}, 2))
                .partition(PartitionState.of(T, 2, new int[] {1, 2, 0}, new int[] {1, 2}, 1))
                .build();
    }

    /** Broker 0 back in every ISR, leading none of its two preferred partitions. */
    private static ClusterSnapshot brokerZeroCaughtUp() {
        return ClusterSnapshot.builder()
                .broker(BrokerState.active(0))
                .broker(BrokerState.active(1))
                .broker(BrokerState.active(2))
                .partition(PartitionState.of(T, 0, new int[] {0, 1, 2}, new int[] {0, 1, 2}, 1))
                .partition(PartitionState.of(T, 1, new int[] {0, 2, 1}, new int[] {0, 1, 2}, 2))
                .partition(PartitionState.of(T, 2, new int[] {1, 2, 0}, new int[] {0, 1, 2}, 1))
                .build();
    }

    private static RunRecord run(PacerConfig config, ClusterSnapshot snapshot, long readMs) {
        ElectionDecision d = PreferredLeaderBalancer.decide(snapshot, config, BalancerMemory.empty(), 0);
        return new RunRecord(
                7,
                0,
                readMs,
                false,
                config,
                Optional.of(d),
                List.of(),
                Map.of(),
                3,
                new RunTimings(readMs * 1_000_000, 0, 0, 0, false),
                Optional.empty(),
                d.nextRunDelayMs());
    }

    @Test
    void gatedBroker_readLongerThanTheRecheck_isSlow_namingTheRecheckInterval() {
        RunRecord run = run(RECHECK, brokerZeroBehind(), 17_300);
        assertThat(run.nextRunDelayMs())
                .as("the re-check serves the gated broker")
                .isEqualTo(15_000);

        SlowRead slow = SlowRead.of(run).orElseThrow();

        assertThat(slow)
                .isEqualTo(
                        new SlowRead(7, 17_300, 15_000, "leader.imbalance.election.wait.for.sync.recheck.interval.ms"));
        assertThat(slow.describe())
                .isEqualTo("run 7 read the cluster in 17.3 s, longer than the 15.0 s interval it"
                        + " serves, so every run comes a read late; raise"
                        + " leader.imbalance.election.wait.for.sync.recheck.interval.ms above the read's time");
    }

    @Test
    void gatedBroker_readWithinTheRecheck_isNotSlow() {
        assertThat(SlowRead.of(run(RECHECK, brokerZeroBehind(), 15_000))).isEmpty();
        assertThat(SlowRead.of(run(RECHECK, brokerZeroBehind(), 1_200))).isEmpty();
    }

    @Test
    void nothingGated_readAgainstTheCheckInterval_namesTheCheckInterval() {
        PacerConfig immediate = PacerConfig.fromMap(Map.of());
        assertThat(SlowRead.of(run(immediate, brokerZeroBehind(), 17_300)))
                .as("300 s serve it")
                .isEmpty();

        SlowRead slow = SlowRead.of(run(immediate, brokerZeroBehind(), 301_000)).orElseThrow();

        assertThat(slow.intervalMs()).isEqualTo(300_000);
        assertThat(slow.setting()).isEqualTo("leader.imbalance.check.interval.seconds");
    }

    @Test
    void cappedRunFollowedAtOnce_isNeverSlow_andAThrottledOneNamesTheThrottle() {
        RunRecord atOnce = run(AT_ONCE, brokerZeroCaughtUp(), 5_000);
        assertThat(atOnce.nextRunDelayMs())
                .as("Kafka reruns a capped run at once")
                .isEqualTo(10);
        assertThat(SlowRead.of(atOnce)).isEmpty();

        PacerConfig throttled = PacerConfig.fromMap(Map.of(
                "leader.imbalance.election.max.per.run",
                "1",
                "leader.imbalance.election.throttle.interval.ms",
                "2000"));
        SlowRead slow = SlowRead.of(run(throttled, brokerZeroCaughtUp(), 5_000)).orElseThrow();

        assertThat(slow.setting()).isEqualTo("leader.imbalance.election.throttle.interval.ms");
        assertThat(slow.intervalMs()).isEqualTo(2_000);
    }

    @Test
    void failedRun_isNotSlow_whateverItsRead() {
        RunRecord failed = new RunRecord(
                8,
                0,
                60_000,
                false,
                RECHECK,
                Optional.empty(),
                List.of(),
                Map.of(),
                0,
                new RunTimings(60_000_000_000L, 0, 0, 0, false),
                Optional.of("could not read the cluster"),
                300_000);

        assertThat(SlowRead.of(failed)).isEmpty();
    }
}
