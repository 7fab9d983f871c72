package io.leaderpacer.report.loadtest;

import io.leaderpacer.report.csv.CsvContent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** Every load-test file, written through its format and read back; and the shipped runs' files, read. */
class LoadTestFilesTest {

    private static final RoundKey PLAIN = new RoundKey("immediate", 1);
    /** A policy with settings holds commas: one quoted cell. */
    private static final RoundKey WITH_SETTINGS = new RoundKey(
            "kip-example-scaled:leader.imbalance.election.max.per.run=15,leader.imbalance.election.throttle.interval.ms=1000",
            2);

    private static final Path EVIDENCE = Path.of("..", "docs", "evidence");

    @Test
    void everyFile_writtenThroughItsFormat_readsBackEqual(@TempDir Path dir) throws IOException {
        List<RoundRow> rounds = List.of(
                new RoundRow(
                        PLAIN,
                        new RoundRow.Latency(
                                new RoundRow.SteadyP99(40.125, 41),
                                new RoundRow.WindowP99(400, 410.5, 390, 500, 450, 300),
                                3,
                                7),
                        new RoundRow.Timeline(30, 50, 60, 120, 200),
                        new RoundRow.Recovery(28.5, Double.NaN, 4),
                        new RoundRow.Reentry(1, 2, 3.5, 44.99, 101, 101),
                        new RoundRow.CpuSaturation("cgroup v1 cpu.cfs_quota_us", 0.5, true, 0.477, 0.334, 0.309)),
                new RoundRow(
                        WITH_SETTINGS,
                        new RoundRow.Latency(
                                new RoundRow.SteadyP99(Double.NaN, Double.NaN),
                                new RoundRow.WindowP99(
                                        Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN),
                                0,
                                0),
                        new RoundRow.Timeline(30, 50, 60, 120, 200),
                        new RoundRow.Recovery(Double.NaN, 20.237, 0),
                        new RoundRow.Reentry(Double.NaN, Double.NaN, Double.NaN, Double.NaN, 0, 0),
                        new RoundRow.CpuSaturation("none", Double.NaN, false, Double.NaN, Double.NaN, Double.NaN)));
        roundTrip(LoadTestFiles.ROUNDS, dir, rounds);
        roundTrip(
                LoadTestFiles.LATENCY_SECONDS,
                dir,
                List.of(
                        new LatencySecondRow(PLAIN, 61, "all", 1000, 2, new LatencySecondRow.Latency(3.5, 40, 120.25)),
                        new LatencySecondRow(
                                WITH_SETTINGS,
                                62,
                                "protected",
                                0,
                                0,
                                new LatencySecondRow.Latency(Double.NaN, Double.NaN, Double.NaN))));
        roundTrip(
                LoadTestFiles.LATENCY_BUCKETS,
                dir,
                List.of(
                        new LatencyBucketRow(PLAIN, "steady", "all", 1.5, 10),
                        new LatencyBucketRow(WITH_SETTINGS, "window", "leader", 1024, 0)));
        roundTrip(
                LoadTestFiles.PARTITIONS,
                dir,
                List.of(
                        new PartitionRow(
                                PLAIN,
                                12.5,
                                "fenced",
                                new PartitionRow.Preferred(101, 0, 0),
                                new PartitionRow.Hosted(300, 0, null, null),
                                new PartitionRow.Internal(null, null, null, null)),
                        new PartitionRow(
                                WITH_SETTINGS,
                                13,
                                "active",
                                new PartitionRow.Preferred(101, 50, 101),
                                new PartitionRow.Hosted(300, 290, 40L << 20, 80L << 20),
                                new PartitionRow.Internal(5, 4, 2, 1))));
        roundTrip(
                LoadTestFiles.CPU,
                dir,
                List.of(new CpuRow(PLAIN, 1.5, 0.25), new CpuRow(WITH_SETTINGS, 2, 1.125, 3L, 2L, 61.5)));
        roundTrip(
                LoadTestFiles.THREADS,
                dir,
                List.of(
                        new ThreadCpuRow(PLAIN, 1.5, "compiler", 0.25),
                        new ThreadCpuRow(WITH_SETTINGS, 2, "replica_fetcher", 0.125)));
        roundTrip(
                LoadTestFiles.AGENT_RUNS,
                dir,
                List.of(
                        new AgentRunRow(PLAIN, 26.567, 0, 0, false, false),
                        new AgentRunRow(WITH_SETTINGS, 31.638, 15, 15, true, true)));
        roundTrip(
                LoadTestFiles.STEADY_WINDOWS,
                dir,
                List.of(
                        new SteadyWindowRow(PLAIN, 0, "all", 250, 10),
                        new SteadyWindowRow(WITH_SETTINGS, 3, "other", 0, Double.NaN)));
        roundTrip(
                LoadTestFiles.PACING,
                dir,
                List.of(
                        new PacingRow(
                                PLAIN,
                                61,
                                5L << 20,
                                80L << 20,
                                "recovering: rate raised",
                                "",
                                "topic t follower list + 0:1; broker 1 follower rate 5.0 MiB/s"),
                        new PacingRow(
                                WITH_SETTINGS,
                                62,
                                null,
                                null,
                                "not recovering, \"released\"",
                                "describeConfigs failed",
                                "")));
        roundTrip(
                LoadTestFiles.ROLLING,
                dir,
                List.of(
                        new RollingRow(PLAIN, "0", 0, 41.5, 80.25, 79, new RollingRow.Latency(9000, 250, 35), 0, 0),
                        new RollingRow(
                                WITH_SETTINGS,
                                "all",
                                0,
                                Double.NaN,
                                Double.NaN,
                                Double.NaN,
                                new RollingRow.Latency(27000, 8724, 52),
                                2,
                                3)));
        roundTrip(
                LoadTestFiles.ROLLING_PACING,
                dir,
                List.of(
                        new RollingPacingRow(PLAIN, 0, 45.5, 5L << 20, 80L << 20, "recovering: rate raised", "", ""),
                        new RollingPacingRow(WITH_SETTINGS, 2, 300, null, null, "not paced", "", "")));
        roundTrip(
                LoadTestFiles.ROLLING_THREADS,
                dir,
                List.of(
                        new RollingThreadRow(PLAIN, 0, 40.5, "compiler", 0.25),
                        new RollingThreadRow(WITH_SETTINGS, 1, 120, "replica_fetcher", 0.125)));
        assertThat(LoadTestFiles.ALL).allSatisfy(f -> assertThat(f.in(dir)).exists());
    }

    private static <R> void roundTrip(CsvFile<R> file, Path dir, List<R> rows) throws IOException {
        file.writeIn(dir, rows);
        CsvContent<R> read = file.readIn(dir, file.format().columns(), "");
        assertThat(read.columns()).as(file.name()).isEqualTo(file.format().columns());
        assertThat(read.rows()).as(file.name()).isEqualTo(rows);
    }

    @Test
    void shippedRuns_readWithTheirColumnSets() throws IOException {
        List<Path> runs;
        try (Stream<Path> list = Files.list(EVIDENCE)) {
            runs = list.filter(d -> Files.exists(d.resolve("rounds.csv")))
                    .sorted()
                    .toList();
        }
        assertThat(runs).hasSizeGreaterThanOrEqualTo(7);
        for (Path run : runs) {
            for (CsvFile<?> file : LoadTestFiles.ALL) {
                file.readIfPresentIn(run, List.of("policy", "round"))
                        .ifPresent(content -> assertThat(content.rows())
                                .as(content.source())
                                .isNotEmpty()
                                .allSatisfy(row -> assertThat(row).isNotNull()));
            }
            CsvContent<RoundRow> rounds = LoadTestFiles.ROUNDS.readIn(
                    run, LoadTestFiles.ROUNDS.format().columns(), "");
            assertThat(rounds.rows()).as(run.toString()).allSatisfy(r -> {
                assertThat(r.key().round()).isPositive();
                assertThat(r.timeline().unfencedAtS())
                        .isGreaterThan(r.timeline().restartedAtS());
            });
        }
    }

    /** A run made before the load test recorded log-dir sizes has no byte columns: it reads, and says so. */
    @Test
    void partitionsOfARunWithoutByteColumns_readWithTheBytesUnknown() {
        CsvContent<PartitionRow> read = LoadTestFiles.PARTITIONS
                .format()
                .parse(
                        "partitions.csv",
                        "policy,round,at_s,broker_status,preferred,preferred_led,preferred_in_isr,hosted,hosted_in_isr\n"
                                + "immediate,1,9.5,fenced,101,0,0,300,0\n",
                        List.of("policy", "round", "at_s"));

        assertThat(read.has("hosted_bytes")).isFalse();
        assertThat(read.rows()).singleElement().satisfies(r -> {
            assertThat(r.asReplica().bytes()).isNull();
            assertThat(r.asPreferred().partitions()).isEqualTo(101);
        });
    }

    /** A cpu.csv written before the quota's counters were recorded still reads, without them. */
    @Test
    void cpuWithoutTheQuotaCounters_reads_withThemUnknown() {
        CsvContent<CpuRow> read = LoadTestFiles.CPU
                .format()
                .parse("cpu.csv", "policy,round,at_s,cores\nimmediate,1,1.5,0.25\n", List.of("policy", "round"));

        assertThat(read.rows()).singleElement().satisfies(r -> {
            assertThat(r.cores()).isEqualTo(0.25);
            assertThat(r.throttledPeriods()).isNull();
            assertThat(r.throttledMs()).isNaN();
        });
    }

    /** A pacing.csv written before the look's changes were recorded still reads, without them. */
    @Test
    void pacingWithoutTheChangesColumn_reads_withNoChanges() {
        CsvContent<PacingRow> read = LoadTestFiles.PACING
                .format()
                .parse(
                        "pacing.csv",
                        "policy,round,at_s,rate_bytes,bytes_behind,reason,problem\nimmediate,1,1.5,,,not paced,\n",
                        List.of());

        assertThat(read.rows()).singleElement().satisfies(r -> {
            assertThat(r.reason()).isEqualTo("not paced");
            assertThat(r.changes()).isNull();
        });
    }

    /** The calibration's catch-up reader needs four columns of rounds.csv: a file with just those reads. */
    @Test
    void roundsWithOnlyTheTimelineColumns_read() {
        CsvContent<RoundRow> read = LoadTestFiles.ROUNDS
                .format()
                .parse("rounds.csv", "policy,round,restarted_at_s,unfenced_at_s\nwait-for-sync,1,10,12\n", List.of());

        assertThat(read.rows()).singleElement().satisfies(r -> {
            assertThat(r.key()).isEqualTo(new RoundKey("wait-for-sync", 1));
            assertThat(r.timeline().unfencedAtS()).isEqualTo(12);
            assertThat(r.timeline().stoppedAtS()).isNaN();
            assertThat(r.latency().steady().allMs())
                    .as("a group without any of its columns")
                    .isNaN();
            assertThat(r.cpu().mode()).isNull();
        });
    }
}
