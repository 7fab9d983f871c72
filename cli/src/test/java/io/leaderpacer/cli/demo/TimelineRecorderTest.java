package io.leaderpacer.cli.demo;

import io.leaderpacer.agent.ElectionOutcome;
import io.leaderpacer.agent.ElectionResult;
import io.leaderpacer.agent.RunRecord;
import io.leaderpacer.agent.RunTimings;
import io.leaderpacer.engine.BalancerMemory;
import io.leaderpacer.engine.Election;
import io.leaderpacer.engine.ElectionDecision;
import io.leaderpacer.engine.GatePhase;
import io.leaderpacer.engine.PreferredLeaderBalancer;
import io.leaderpacer.engine.cluster.ClusterSnapshot;
import io.leaderpacer.engine.cluster.PartitionState;
import io.leaderpacer.engine.config.PacerConfig;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class TimelineRecorderTest {

    /**
     * Ten partitions preferring broker 1, all led by broker 0 (broker 1 was restarted); broker 1
     * is back in the ISR of the first {@code inSync} of them.
     */
    private static ClusterSnapshot restartedBroker1(int inSync) {
        ClusterSnapshot.Builder b = ClusterSnapshot.builder().activeBrokers(3);
        for (int p = 0; p < 10; p++) {
            int[] isr = p < inSync ? new int[] {0, 1, 2} : new int[] {0, 2};
            b.partition(PartitionState.of("t", p, new int[] {1, 0, 2}, isr, 0));
        }
        return b.build();
    }

    private static RunRecord run(ClusterSnapshot cluster, PacerConfig config, long startedAtMs) {
        ElectionDecision decision = PreferredLeaderBalancer.decide(cluster, config, BalancerMemory.empty(), startedAtMs);
        List<ElectionResult> results = new ArrayList<>();
        for (Election e : decision.elections()) {
            results.add(new ElectionResult(e.partition(), e.previousLeader(), e.newLeader(), ElectionOutcome.ELECTED, ""));
        }
        return new RunRecord(1, startedAtMs, startedAtMs + 40, false, config, Optional.of(decision), results,
                Map.of(0, 10), 10, RunTimings.NONE, Optional.empty(), 1000);
    }

    private final List<String> printed = new ArrayList<>();

    private TimelineRecorder recorder(long roundStartMs) {
        return new TimelineRecorder(1, new ProduceLatency(), printed::add, roundStartMs);
    }

    @Test
    void gatedRun_becomesALineWithTheGateReportsCountsAndNoElections() {
        TimelineRecorder recorder = recorder(2_000);

        recorder.onRun(run(restartedBroker1(5), DemoSettings.paced(), 5_000));

        TimelineSample s = recorder.samples().get(0);
        assertThat(s.atMs()).isEqualTo(3_000);
        assertThat(s.restartedActive()).isTrue();
        assertThat(s.outOfSync()).isEqualTo(5);
        assertThat(s.preferredPartitions()).isEqualTo(10);
        assertThat(s.phase()).isEqualTo(GatePhase.GATED);
        assertThat(s.leaders()).isZero();
        assertThat(s.electionsToRestarted()).isZero();
        assertThat(printed).hasSize(1);
        assertThat(printed.get(0)).contains("5/10 (50%)", "gated");
    }

    @Test
    void immediateRun_countsTheElectionsKafkaCarriedOut() {
        TimelineRecorder recorder = recorder(0);

        recorder.onRun(run(restartedBroker1(4), DemoSettings.immediateBaseline(), 1_000));

        TimelineSample s = recorder.samples().get(0);
        assertThat(s.phase()).isEqualTo(GatePhase.NOT_APPLICABLE);
        assertThat(s.elections()).isEqualTo(4);
        assertThat(s.electionsToRestarted()).isEqualTo(4);
        assertThat(s.leadersAfterRun()).isEqualTo(4);
    }

    @Test
    void runThatReturnsAllLeadership_endsTheRoundOnlyAfterTheRestart() throws Exception {
        TimelineRecorder recorder = recorder(0);
        RunRecord allBack = run(restartedBroker1(10), DemoSettings.immediateBaseline(), 1_000);

        recorder.onRun(allBack);
        assertThat(recorder.awaitRecovered(0)).as("before the restart").isFalse();

        recorder.markRestarted();
        recorder.onRun(allBack);
        assertThat(recorder.awaitRecovered(0)).as("after the restart").isTrue();
    }

    @Test
    void failedRun_isPrintedButNotRecorded() {
        TimelineRecorder recorder = recorder(0);
        RunRecord failed = new RunRecord(7, 1_500, 1_600, false, PacerConfig.defaults(), Optional.empty(), List.of(),
                Map.of(), 0, RunTimings.NONE, Optional.of("TimeoutException: describeTopics"), 300_000);

        recorder.onRun(failed);

        assertThat(recorder.samples()).isEmpty();
        assertThat(printed).singleElement().asString()
                .contains("+1.5s", "agent run 7 failed: TimeoutException: describeTopics", "retried in 1000 ms");
    }
}
