package io.leaderpacer.loadtest.result;

import io.leaderpacer.cluster.cpu.ThreadCpu;
import io.leaderpacer.loadtest.observe.PacingSample;
import io.leaderpacer.loadtest.observe.ThreadCpuSampler;
import io.leaderpacer.report.loadtest.RollingPacingRow;
import io.leaderpacer.report.loadtest.RollingRow;
import io.leaderpacer.report.loadtest.RollingThreadRow;
import io.leaderpacer.report.loadtest.RoundKey;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;

/** A rolling run's table and CSV lines, worked by hand. */
class RollingReportTest {

    /** {@code count} sends of {@code ms} each. */
    private static Histogram sends(long count, long ms) {
        Histogram h = new Histogram(1, 600_000_000L, 3);
        h.recordValueWithCount(ms * 1000, count);
        return h;
    }

    private static RollingResult.Leg leg(int broker, long stopped, long unfenced, Long leads, Histogram sends) {
        return new RollingResult.Leg(
                broker,
                stopped,
                unfenced,
                leads == null ? OptionalLong.empty() : OptionalLong.of(leads),
                leads == null ? OptionalLong.empty() : OptionalLong.of(leads + 5_000),
                leads == null ? unfenced + 360_000 : leads + 5_000,
                sends,
                leads == null ? Map.of("REQUEST_TIMED_OUT", 2L, "NOT_ENOUGH_REPLICAS", 1L) : Map.of(),
                RollingResult.Trace.none());
    }

    /** Steady 10 ms; three turns of 1,000 sends, one in a hundred and one (per turn) at 500 ms: P99 across 500 ms. */
    private static RollingResult immediate() {
        return new RollingResult(
                "immediate",
                1,
                sends(1000, 10),
                List.of(
                        leg(0, 0, 40_000, 80_000L, mixed()),
                        leg(1, 85_000, 125_000, 165_000L, mixed()),
                        leg(2, 170_000, 210_000, 250_000L, mixed())));
    }

    private static Histogram mixed() {
        Histogram h = sends(989, 20);
        h.add(sends(11, 500));
        return h;
    }

    @Test
    void aRound_isItsPooledP99OverTheSteadyOne_andItsTimeAgainstTheBaselineRoundOfTheSameNumber() {
        RollingResult paced = new RollingResult(
                "recommended-paced",
                1,
                sends(1000, 10),
                List.of(
                        leg(0, 0, 40_000, 200_000L, sends(1000, 15)),
                        leg(1, 205_000, 245_000, 400_000L, sends(1000, 15)),
                        leg(2, 405_000, 445_000, 500_000L, sends(1000, 15))));

        List<List<String>> rows = RollingReport.rows(List.of(immediate(), paced), "immediate");

        // HdrHistogram reports the highest value equivalent to the one recorded (3 significant digits): 500.223 ms
        // over 10.007 ms.
        assertThat(rows.get(0))
                .containsExactly(
                        "immediate",
                        "1",
                        "500",
                        "10",
                        "49.99",
                        "0",
                        "0",
                        "250.0",
                        "1.00",
                        "255.0",
                        "0: 40.0, 1: 40.0, 2: 40.0");
        assertThat(rows.get(1))
                .containsExactly(
                        "recommended-paced",
                        "1",
                        "15",
                        "10",
                        "1.50",
                        "0",
                        "0",
                        "500.0",
                        "2.00",
                        "505.0",
                        "0: 160.0, 1: 155.0, 2: 55.0");
    }

    @Test
    void aTurnThatNeverLedAgain_leavesTheRestartsTimeOpen_andItsFailuresCount() {
        RollingResult stuck = new RollingResult(
                "recommended-deadline",
                1,
                sends(1000, 10),
                List.of(leg(0, 0, 40_000, 80_000L, sends(10, 20)), leg(1, 85_000, 125_000, null, sends(10, 20))));

        List<String> row =
                RollingReport.rows(List.of(immediate(), stuck), "immediate").get(1);

        assertThat(row.get(5)).isEqualTo("2");
        assertThat(row.get(6)).isEqualTo("3");
        assertThat(row.get(7)).isEqualTo("not");
        assertThat(row.get(8)).isEmpty();
        assertThat(row.get(10)).isEqualTo("0: 40.0, 1: not");
    }

    @Test
    void csvLines_areEachTurnThenTheWhole_timesInSecondsFromTheFirstStop() {
        List<RollingRow> rows = RollingReport.csvRows(List.of(immediate()));

        assertThat(rows).extracting(RollingRow::leg).containsExactly("0", "1", "2", "all");
        assertThat(rows.get(1).stoppedAtS()).isEqualTo(85.0);
        assertThat(rows.get(1).unfencedAtS()).isEqualTo(125.0);
        assertThat(rows.get(1).leadsAtS()).isEqualTo(165.0);
        assertThat(rows.get(1).inSyncAtS()).isEqualTo(170.0);
        assertThat(rows.get(3).latency().sends()).isEqualTo(3000);
        assertThat(rows.get(3).latency().p99Ms()).isEqualTo(500.0, org.assertj.core.data.Offset.offset(1.0));
        assertThat(rows.get(3).latency().steadyP99Ms()).isEqualTo(10.0, org.assertj.core.data.Offset.offset(0.1));
        assertThat(rows.get(3).leadsAtS()).isEqualTo(250.0);
        assertThat(rows.get(3).unfencedAtS()).isNaN();
    }

    @Test
    void pacingAndThreadLines_nameTheTurnsBroker_inSecondsFromTheFirstStop() {
        RollingResult.Leg first = new RollingResult.Leg(
                0,
                0,
                40_000,
                OptionalLong.of(80_000),
                OptionalLong.of(79_000),
                85_000,
                sends(10, 20),
                Map.of(),
                new RollingResult.Trace(
                        List.of(new PacingSample(41_500, 5L << 20, 300L << 20, "recovering", "", "")),
                        List.of(new ThreadCpuSampler.Sample(39_000, ThreadCpu.Group.REPLICA_FETCHER, 0.25))));
        RollingResult.Leg second = new RollingResult.Leg(
                2,
                85_000,
                125_000,
                OptionalLong.of(165_000),
                OptionalLong.of(166_000),
                170_000,
                sends(10, 20),
                Map.of(),
                new RollingResult.Trace(List.of(new PacingSample(130_000, -1, -1, "not paced", "", "")), List.of()));
        List<RollingResult> results =
                List.of(new RollingResult("recommended-paced", 2, sends(1000, 10), List.of(first, second)));

        List<RollingPacingRow> pacing = RollingReport.pacingRows(results);
        List<RollingThreadRow> threads = RollingReport.threadRows(results);

        assertThat(pacing)
                .containsExactly(
                        new RollingPacingRow(
                                new RoundKey("recommended-paced", 2),
                                0,
                                41.5,
                                5L << 20,
                                300L << 20,
                                "recovering",
                                "",
                                ""),
                        new RollingPacingRow(
                                new RoundKey("recommended-paced", 2), 2, 130.0, null, null, "not paced", "", ""));
        assertThat(threads)
                .containsExactly(
                        new RollingThreadRow(new RoundKey("recommended-paced", 2), 0, 39.0, "replica_fetcher", 0.25));
    }
}
