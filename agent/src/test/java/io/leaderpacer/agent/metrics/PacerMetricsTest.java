package io.leaderpacer.agent.metrics;

import io.leaderpacer.agent.core.ElectionOutcome;
import io.leaderpacer.agent.core.ElectionResult;
import io.leaderpacer.agent.core.PacingReport;
import io.leaderpacer.agent.core.RunRecord;
import io.leaderpacer.agent.core.RunTimings;
import io.leaderpacer.engine.BalancerMemory;
import io.leaderpacer.engine.ElectionDecision;
import io.leaderpacer.engine.PreferredLeaderBalancer;
import io.leaderpacer.engine.cluster.ClusterSnapshot;
import io.leaderpacer.engine.cluster.PartitionState;
import io.leaderpacer.engine.config.PacerConfig;
import io.leaderpacer.engine.pacing.BrokerPacing;
import io.leaderpacer.engine.pacing.PacingPhase;
import org.junit.jupiter.api.Test;

import javax.management.MBeanServer;
import javax.management.ObjectName;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;

class PacerMetricsTest {

    /**
     * Hand-worked case: 3 brokers, 6 partitions; broker 2 prefers p2 and p5, is out of the ISR of p2 (50% > 10%:
     * gated); p5 is in sync but not led by 2, so it is skipped by the gate. Broker 1 prefers p1 and p4, leads
     * neither and is in sync: cap 1 elects one and defers the other.
     */
    static RunRecord handWorkedRun() {
        ClusterSnapshot s = ClusterSnapshot.builder()
                .activeBrokers(3)
                .partition(PartitionState.of("t", 0, new int[] {0, 1, 2}, new int[] {0, 1, 2}, 0))
                .partition(PartitionState.of("t", 1, new int[] {1, 2, 0}, new int[] {0, 1, 2}, 0))
                .partition(PartitionState.of("t", 2, new int[] {2, 0, 1}, new int[] {0, 1}, 0))
                .partition(PartitionState.of("t", 3, new int[] {0, 1, 2}, new int[] {0, 1, 2}, 0))
                .partition(PartitionState.of("t", 4, new int[] {1, 2, 0}, new int[] {0, 1, 2}, 0))
                .partition(PartitionState.of("t", 5, new int[] {2, 0, 1}, new int[] {0, 1, 2}, 0))
                .build();
        PacerConfig c = PacerConfig.fromMap(Map.of(
                "leader.imbalance.election.algorithm",
                "wait-for-sync",
                "leader.imbalance.election.wait.for.sync.threshold.percent",
                "10",
                "leader.imbalance.election.max.per.run",
                "1"));
        ElectionDecision d = PreferredLeaderBalancer.decide(s, c, BalancerMemory.empty(), 1000);
        List<ElectionResult> results = d.elections().stream()
                .map(e -> new ElectionResult(
                        e.partition(), e.previousLeader(), e.newLeader(), ElectionOutcome.ELECTED, ""))
                .toList();
        return new RunRecord(
                1,
                1000,
                1010,
                false,
                c,
                Optional.of(d),
                results,
                RunRecord.leaderCounts(s),
                6,
                RunTimings.NONE,
                Optional.empty(),
                d.nextRunDelayMs());
    }

    @Test
    void handWorkedRun_setsKip1358sMetrics() {
        try (PacerMetrics m = PacerMetrics.prometheusOnly()) {
            m.onRun(handWorkedRun());
            String text = m.scrape();
            assertThat(text)
                    .contains("OutOfSyncPreferredPartitionCount{broker=\"2\"} 1")
                    .contains("BrokerGated{broker=\"2\"} 1")
                    .contains("BrokerGated{broker=\"1\"} 0")
                    .contains("OutOfSyncPreferredPartitionCount{broker=\"0\"} 0")
                    .contains("GatedBrokerCount 1")
                    .contains("PreferredReplicaImbalanceCount 4")
                    .contains("PreferredLeaderElectionsSkippedByGatePerSec_total 1")
                    .contains("PreferredLeaderElectionsDeferredByThrottlePerSec_total 1")
                    .contains("PreferredLeaderElectionResults_total{outcome=\"elected\"} 1")
                    .contains("LeaderPacerRuns_total 1");
            // Counters add up over runs; gauges show the last run.
            m.onRun(handWorkedRun());
            assertThat(m.scrape())
                    .contains("PreferredLeaderElectionsSkippedByGatePerSec_total 2")
                    .contains("GatedBrokerCount 1");
            assertThat(m.outOfSyncCount(2)).isEqualTo(1);
        }
    }

    @Test
    void failedRun_countsAFailureAndLeavesGauges() {
        try (PacerMetrics m = PacerMetrics.prometheusOnly()) {
            m.onRun(handWorkedRun());
            RunRecord ok = handWorkedRun();
            m.onRun(new RunRecord(
                    2,
                    2000,
                    2001,
                    false,
                    ok.config(),
                    Optional.empty(),
                    List.of(),
                    Map.of(),
                    0,
                    RunTimings.NONE,
                    Optional.of("TimeoutException: no answer"),
                    300_000));
            assertThat(m.scrape()).contains("LeaderPacerRunFailures_total 1").contains("GatedBrokerCount 1");
        }
    }

    @Test
    void jmxRegistry_exposesTheGaugesAsMBeans() throws Exception {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        try (PacerMetrics m = PacerMetrics.withJmxAndPrometheus()) {
            m.onRun(handWorkedRun());
            assertThat(server.queryNames(new ObjectName(PacerMetrics.JMX_DOMAIN + ":*"), null))
                    .extracting(ObjectName::toString)
                    .anySatisfy(n -> assertThat(n).contains("GatedBrokerCount"))
                    .anySatisfy(n -> assertThat(n).contains("OutOfSyncPreferredPartitionCount"));
        }
        assertThat(server.queryNames(new ObjectName(PacerMetrics.JMX_DOMAIN + ":*"), null))
                .isEmpty();
    }

    /** A pacing look at broker 1: 20 MiB/s, 600 MB behind of 900 MB, 30 s to go. */
    static PacingReport pacingLook() {
        BrokerPacing one = new BrokerPacing(
                1,
                PacingPhase.PACED,
                OptionalLong.of(20_971_520),
                "static 20.0 MiB/s",
                new BrokerPacing.Progress(
                        OptionalLong.of(600_000_000),
                        OptionalLong.of(900_000_000),
                        OptionalDouble.of(20_000_000),
                        OptionalLong.of(30_000)));
        return new PacingReport(1000, List.of(one), List.of(), List.of(), Optional.empty());
    }

    @Test
    void pacingLook_setsTheBrokersRateBytesBehindAndEta_andALaterLookWithoutItResetsThem() {
        try (PacerMetrics m = PacerMetrics.prometheusOnly()) {
            m.onPacing(pacingLook());
            assertThat(m.scrape())
                    .contains("CatchUpPacingRateBytes{broker=\"1\"} 2.097152E7")
                    .contains("CatchUpBytesBehind{broker=\"1\"} 6.0E8")
                    .contains("CatchUpEtaSeconds{broker=\"1\"} 30.0")
                    .contains("CatchUpPacedBrokerCount 1.0")
                    .contains("CatchUpPacingOff 0.0");

            m.onPacing(new PacingReport(
                    3000, List.of(), List.of(), List.of(), Optional.of("catch-up pacing is off: ...")));
            assertThat(m.scrape())
                    .contains("CatchUpPacingRateBytes{broker=\"1\"} 0.0")
                    .contains("CatchUpEtaSeconds{broker=\"1\"} -1.0")
                    .contains("CatchUpPacedBrokerCount 0.0")
                    .contains("CatchUpPacingOff 1.0");
        }
    }

    @Test
    void failedLook_countsAFailure_andKeepsTheRateGaugesOfTheThrottlesStillInPlace() {
        try (PacerMetrics m = PacerMetrics.prometheusOnly()) {
            m.onPacing(pacingLook());
            m.onPacing(new PacingReport(
                    3000,
                    List.of(),
                    List.of(),
                    List.of(),
                    Optional.of("cannot read the throttle configs"),
                    PacingReport.Kind.FAILED));
            assertThat(m.scrape())
                    .contains("CatchUpPacingRateBytes{broker=\"1\"} 2.097152E7")
                    .contains("CatchUpPacedBrokerCount 1.0")
                    .contains("CatchUpPacingOff 1.0")
                    .contains("CatchUpPacingLookFailures_total 1.0");
        }
    }
}
