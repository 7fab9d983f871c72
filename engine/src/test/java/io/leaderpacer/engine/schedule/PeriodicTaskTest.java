package io.leaderpacer.engine.schedule;

import io.leaderpacer.engine.BalancerMemory;
import io.leaderpacer.engine.ElectionDecision;
import io.leaderpacer.engine.PreferredLeaderBalancer;
import io.leaderpacer.engine.RecoveryClusterBuilder;
import io.leaderpacer.engine.cluster.ClusterSnapshot;
import io.leaderpacer.engine.config.PacerConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * KIP-1358's test plan, periodic task: the throttle delays only the preferred-election task and only
 * after a run that reported more work; with throttle 0 Kafka's immediate reschedule is kept;
 * every other task keeps its immediate period; a new throttle applies on the next run.
 */
class PeriodicTaskTest {

    private static PacerConfig throttle(long ms) {
        return PacerConfig.fromMap(Map.of("leader.imbalance.election.throttle.interval.ms", Long.toString(ms)));
    }

    @Test
    void throttleAboveZero_runWithMoreWork_nextRunExactlyOneThrottleIntervalLater() {
        PeriodicTask task = PeriodicTask.electPreferred(throttle(15_000));

        assertThat(task.nextDelayMs(RunOutcome.MORE_WORK)).isEqualTo(15_000);
    }

    @Test
    void throttleAboveZero_runWithoutMoreWork_nextRunAfterTheCheckInterval() {
        PeriodicTask task =
                PeriodicTask.electPreferred(throttle(15_000).with("leader.imbalance.check.interval.seconds", "120"));

        assertThat(task.nextDelayMs(RunOutcome.DONE)).isEqualTo(120_000);
    }

    @Test
    void throttleLongerThanTheCheckInterval_stillWinsWhenCapped() {
        PacerConfig config = throttle(600_000).with("leader.imbalance.check.interval.seconds", "300");

        assertThat(PeriodicTask.electPreferred(config).nextDelayMs(RunOutcome.MORE_WORK))
                .isEqualTo(600_000);
        assertThat(PeriodicTask.electPreferred(config).nextDelayMs(RunOutcome.DONE))
                .isEqualTo(300_000);
    }

    @Test
    void throttleZero_runWithMoreWork_keepsTheImmediateTenMillisecondReschedule() {
        PeriodicTask task = PeriodicTask.electPreferred(throttle(0));

        assertThat(task.throttledDelayMs()).isEmpty();
        assertThat(task.nextDelayMs(RunOutcome.MORE_WORK))
                .isEqualTo(PeriodicTask.IMMEDIATE_PERIOD_MS)
                .isEqualTo(10);
    }

    @Test
    void defaults_areKafkasSchedule() {
        PeriodicTask task = PeriodicTask.electPreferred(PacerConfig.defaults());

        assertThat(task.name()).isEqualTo(PeriodicTask.ELECT_PREFERRED);
        assertThat(task.nextDelayMs(RunOutcome.DONE)).isEqualTo(300_000);
        assertThat(task.nextDelayMs(RunOutcome.MORE_WORK)).isEqualTo(10);
    }

    @Test
    void failedRun_isRetriedAfterFiveMinutes() {
        assertThat(PeriodicTask.electPreferred(throttle(15_000)).nextDelayMs(RunOutcome.FAILED))
                .isEqualTo(300_000);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "electUnclean",
                "maybeFenceStaleBroker",
                "generatePeriodicPerformanceMessage",
                "expireDelegationTokens"
            })
    void otherControllerTasks_keepTheirImmediatePeriodWhateverTheThrottle(String name) {
        // The preferred-election task is throttled in the same configuration; the others are not.
        PacerConfig config = throttle(15_000);
        PeriodicTask other = PeriodicTask.unthrottled(name, 60_000);

        assertThat(PeriodicTask.electPreferred(config).nextDelayMs(RunOutcome.MORE_WORK))
                .isEqualTo(15_000);
        assertThat(other.throttledDelayMs()).isEmpty();
        assertThat(other.nextDelayMs(RunOutcome.MORE_WORK))
                .isEqualTo(other.immediatePeriodMs())
                .isEqualTo(10);
        assertThat(other.nextDelayMs(RunOutcome.DONE)).isEqualTo(60_000);
    }

    @Test
    void throttleChangedBetweenRuns_appliesFromTheNextRun() {
        ClusterSnapshot cluster =
                RecoveryClusterBuilder.brokers(0, 1, 2).preferredBy(0, 100, 0).build();
        PacerConfig before = throttle(15_000).with("leader.imbalance.election.max.per.run", "10");
        PacerConfig after = before.with("leader.imbalance.election.throttle.interval.ms", "5000");

        ElectionDecision first = PreferredLeaderBalancer.decide(cluster, before, BalancerMemory.empty(), 0);
        ElectionDecision second = PreferredLeaderBalancer.decide(cluster, after, first.nextMemory(), 15_000);
        ElectionDecision third = PreferredLeaderBalancer.decide(
                cluster,
                after.with("leader.imbalance.election.throttle.interval.ms", "0"),
                second.nextMemory(),
                20_000);

        assertThat(first.moreWork()).isTrue();
        assertThat(first.nextRunDelayMs()).isEqualTo(15_000);
        assertThat(second.nextRunDelayMs()).isEqualTo(5_000);
        assertThat(third.nextRunDelayMs()).isEqualTo(10);
    }

    @Test
    void decisionWithoutMoreWork_schedulesTheNextRunAfterTheCheckInterval() {
        ClusterSnapshot cluster =
                RecoveryClusterBuilder.brokers(0, 1, 2).preferredBy(0, 5, 0).build();

        ElectionDecision d = PreferredLeaderBalancer.decide(cluster, throttle(15_000), BalancerMemory.empty(), 0);

        assertThat(d.moreWork()).isFalse();
        assertThat(d.nextRunDelayMs()).isEqualTo(300_000);
    }

    @Test
    void hugeCheckInterval_doesNotOverflowIntoANegativeDelay() {
        PacerConfig config =
                PacerConfig.fromMap(Map.of("leader.imbalance.check.interval.seconds", Long.toString(Long.MAX_VALUE)));

        assertThat(PeriodicTask.electPreferred(config).nextDelayMs(RunOutcome.DONE))
                .isEqualTo(Long.MAX_VALUE);
    }
}
