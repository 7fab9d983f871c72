package io.leaderpacer.loadtest.result;

import io.leaderpacer.cluster.cpu.CgroupThrottling;
import io.leaderpacer.loadtest.load.Phase;
import io.leaderpacer.loadtest.load.SecondSample;
import io.leaderpacer.loadtest.load.View;
import io.leaderpacer.loadtest.observe.AgentRunSample;
import io.leaderpacer.loadtest.observe.BrokerStatus;
import io.leaderpacer.loadtest.observe.PacingSample;
import io.leaderpacer.loadtest.observe.PartitionSample;
import io.leaderpacer.report.loadtest.CsvFile;
import io.leaderpacer.report.loadtest.LoadTestFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every file the load test writes reads back through the one format its writer and the calibration's reader share,
 * into the very rows it was written from: a column written and not read (or read under another name) fails here.
 */
class CsvRowsTest {

    private static final String POLICY = "kip-example-scaled:leader.imbalance.election.max.per.run=15,"
            + "leader.imbalance.election.throttle.interval.ms=1000";

    /** A round of the fixture with a sample of every kind (bytes unknown in some, as a down broker gives them). */
    private static RoundResult withSamples(RoundResult r) {
        RoundResult.Latency latency = Rounds.latency(
                r.latency().steady(),
                r.latency().window(),
                r.latency().steadyWindows(),
                r.latency().errors(),
                List.of(
                        new SecondSample(61, View.ALL, 1000, 2, 3.5, 40, 120.25),
                        new SecondSample(62, View.PROTECTED, 0, 0, Double.NaN, Double.NaN, Double.NaN)),
                List.of(
                        new RoundResult.LatencyBucket(Phase.STEADY, View.ALL, 1.5, 10),
                        new RoundResult.LatencyBucket(Phase.WINDOW, View.LEADER, 1024, 0)));
        RoundResult.Trace trace = new RoundResult.Trace(
                List.of(new AgentRunSample(26_567, 0, 0, false, false), new AgentRunSample(61_638, 15, 15, true, true)),
                List.of(
                        new PartitionSample(
                                30_500, BrokerStatus.FENCED, 101, 0, 0, 300, 0, -1, -1, PartitionSample.Internal.NONE),
                        new PartitionSample(
                                61_000,
                                BrokerStatus.values()[BrokerStatus.values().length - 1],
                                101,
                                50,
                                101,
                                300,
                                290,
                                40L << 20,
                                80L << 20,
                                new PartitionSample.Internal(5, 4, 2, 1))),
                List.of(
                        new RoundResult.CpuSample(1_500, 0.25),
                        new RoundResult.CpuSample(2_000, 0.5, Optional.of(new CgroupThrottling(3, 2, 61_500_000L)))),
                List.of(
                        new PacingSample(
                                61_000,
                                5L << 20,
                                80L << 20,
                                "recovering: rate raised",
                                "",
                                "topic t follower list + 0:1,1:1; broker 1 follower rate 5.0 MiB/s"),
                        new PacingSample(62_000, -1, -1, "released, \"caught up\"", "describeConfigs failed", "")));
        return new RoundResult(r.policy(), r.round(), latency, r.moments(), r.recovery(), r.saturation(), trace);
    }

    @Test
    void everyFileTheLoadTestWrites_readsBackThroughItsSharedFormat_intoTheSameRows(@TempDir Path dir)
            throws IOException {
        LoadTestResult result = new LoadTestResult(
                List.of("settings"),
                true,
                "immediate",
                List.of(
                        withSamples(Rounds.round("immediate", 1, 100, 90, 0, 30_000L, 28_000, 0.5)),
                        withSamples(Rounds.round(POLICY, 1, 50.125, 40, 3, null, 15_000, 0.5))));
        CsvFiles.write(result, dir);

        roundTrip(LoadTestFiles.ROUNDS, dir, CsvRows.rounds(result));
        roundTrip(LoadTestFiles.LATENCY_SECONDS, dir, CsvRows.latencySeconds(result));
        roundTrip(LoadTestFiles.LATENCY_BUCKETS, dir, CsvRows.latencyBuckets(result));
        roundTrip(LoadTestFiles.PARTITIONS, dir, CsvRows.partitions(result));
        roundTrip(LoadTestFiles.CPU, dir, CsvRows.cpu(result));
        roundTrip(LoadTestFiles.AGENT_RUNS, dir, CsvRows.agentRuns(result));
        roundTrip(LoadTestFiles.STEADY_WINDOWS, dir, CsvRows.steadyWindows(result));
        roundTrip(LoadTestFiles.PACING, dir, CsvRows.pacing(result));
        try (var written = Files.list(dir)) {
            assertThat(written.map(p -> p.getFileName().toString()))
                    .containsExactlyInAnyOrderElementsOf(
                            LoadTestFiles.ALL.stream().map(CsvFile::name).toList());
        }
    }

    @Test
    void aSampleUnderACgroupQuota_writesItsThrottledPeriodsAndTime_andOneWithoutItLeavesThemEmpty(@TempDir Path dir)
            throws IOException {
        LoadTestResult result = new LoadTestResult(
                List.of("settings"),
                true,
                "immediate",
                List.of(withSamples(Rounds.round(POLICY, 1, 50, 40, 3, null, 15_000, 0.5))));
        CsvFiles.write(result, dir);

        assertThat(Files.readAllLines(dir.resolve("cpu.csv")))
                .containsExactly(
                        "policy,round,at_s,cores,periods,throttled_periods,throttled_ms",
                        "\"" + POLICY + "\",1,1.500,0.250,,,",
                        "\"" + POLICY + "\",1,2.000,0.500,3,2,61.500");
    }

    @Test
    void runWithoutPacing_writesNoPacingFile_andEveryOtherFile(@TempDir Path dir) throws IOException {
        LoadTestResult result = new LoadTestResult(
                List.of("settings"),
                true,
                "immediate",
                List.of(Rounds.round("immediate", 1, 100, 90, 0, 30_000L, 28_000, 0.5)));
        CsvFiles.write(result, dir);

        try (var written = Files.list(dir)) {
            assertThat(written.map(p -> p.getFileName().toString()))
                    .containsExactlyInAnyOrderElementsOf(LoadTestFiles.ALL.stream()
                            .map(CsvFile::name)
                            .filter(name -> !name.equals(LoadTestFiles.PACING.name()))
                            .toList());
        }
    }

    private static <R> void roundTrip(CsvFile<R> file, Path dir, List<R> expected) {
        assertThat(expected).as(file.name() + ": the fixture has rows").isNotEmpty();
        assertThat(file.readIn(dir, file.format().columns(), "").rows())
                .as(file.name())
                .isEqualTo(expected);
    }
}
