package io.leaderpacer.loadtest;

import io.leaderpacer.loadtest.result.RollingReport;
import io.leaderpacer.loadtest.result.RollingResult;
import io.leaderpacer.loadtest.steady.WarmUpSettings;
import io.leaderpacer.loadtest.testbed.LocalTarget;
import io.leaderpacer.loadtest.testbed.Saturation;
import io.leaderpacer.loadtest.testbed.ShutdownMode;
import io.leaderpacer.report.loadtest.LoadTestFiles;
import io.leaderpacer.report.loadtest.RollingPacingRow;
import io.leaderpacer.report.loadtest.RollingRow;
import io.leaderpacer.report.loadtest.RollingThreadRow;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A rolling restart on a short real run: three brokers restarted in turn under one policy, controlled shutdowns, a
 * small backlog per turn. It asserts the restart's order and bookkeeping, not which policy wins.
 */
@Tag("cluster")
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class RollingRestartSmokeTest {

    private static final List<Long> PIDS = new ArrayList<>();
    private static List<RollingResult> results;
    private static List<List<RollingResult>> soFar = new ArrayList<>();

    @TempDir
    static Path out;

    @BeforeAll
    @Timeout(value = 8, unit = TimeUnit.MINUTES)
    static void run() throws Exception {
        LoadTestSettings s = LoadTestSettings.builder()
                .brokerHeap("384m")
                .saturation(true, 0.5)
                .partitions(12, 24)
                .load(50, 512)
                .backlog(32L << 20, 1.0, 5)
                .shutdown(ShutdownMode.CONTROLLED)
                .warmup(new WarmUpSettings(Duration.ofSeconds(5), Duration.ofSeconds(20)))
                .steady(Duration.ofSeconds(5))
                .window(Duration.ofSeconds(15))
                .roundLimit(Duration.ofSeconds(90))
                .rounds(1)
                .rolling(true)
                .policies(List.of(NamedPolicy.parse("recommended-paced", 29, 2)))
                .checkIntervalSeconds(2)
                .out(out)
                .build();
        results = new LoadTest(
                        s,
                        () -> {
                            LocalTarget t =
                                    LocalTarget.start(3, "384m", Map.of("auto.leader.rebalance.enable", "false"));
                            PIDS.addAll(t.pids());
                            return t;
                        },
                        Saturation.of(0.5),
                        System.out::println)
                .runRolling("the rolling smoke-test cluster", r -> {
                    soFar.add(r);
                    RollingReport.write(r, NamedPolicy.BASELINE, out, "smoke");
                });
    }

    @Test
    void everyBrokerWasRestartedInTurn_theNextOnlyOnceThePreviousLedAgainInSync() {
        assertThat(results).hasSize(1);
        List<RollingResult.Leg> legs = results.get(0).legs();
        assertThat(legs).extracting(RollingResult.Leg::broker).containsExactly(0, 1, 2);
        long previousDone = -1;
        for (RollingResult.Leg l : legs) {
            assertThat(l.stoppedAt()).isGreaterThanOrEqualTo(previousDone);
            assertThat(l.unfencedAt()).isGreaterThan(l.stoppedAt());
            assertThat(l.leadsAt()).isPresent();
            assertThat(l.inSyncAt()).isPresent();
            assertThat(l.leadsAt().getAsLong()).isGreaterThanOrEqualTo(l.unfencedAt());
            assertThat(l.inSyncAt().getAsLong()).isGreaterThanOrEqualTo(l.unfencedAt());
            assertThat(l.sends().getTotalCount()).isPositive();
            previousDone = Math.max(l.leadsAt().getAsLong(), l.inSyncAt().getAsLong());
            assertThat(l.endedAt()).isGreaterThanOrEqualTo(previousDone);
        }
        assertThat(results.get(0).leadsAgainMs()).isEqualTo(legs.get(2).leadsAt());
    }

    /** Every send from the first stop to the end is in exactly one turn: a turn ends where the next one stops. */
    @Test
    void theTurns_coverTheRestartWithoutAGap() {
        List<RollingResult.Leg> legs = results.get(0).legs();
        // Times count from the end of the steady phase, just before the first stop.
        assertThat(legs.get(0).stoppedAt()).isBetween(0L, 1000L);
        for (int i = 0; i + 1 < legs.size(); i++) {
            assertThat(legs.get(i).endedAt()).isEqualTo(legs.get(i + 1).stoppedAt());
        }
    }

    /**
     * Each turn keeps what pacing did for its broker and the broker's CPU by thread group from its registration, as a
     * recovery round does, and the files hold them with the turn's broker.
     */
    @Test
    void eachTurn_keepsPacingsLooksAndItsBrokersCpu_andTheFilesHoldThem() {
        for (RollingResult.Leg l : results.get(0).legs()) {
            assertThat(l.trace().pacing())
                    .as("broker %d's looks", l.broker())
                    .isNotEmpty()
                    .allSatisfy(p -> assertThat(p.atMs()).isBetween(l.stoppedAt(), l.endedAt()));
            assertThat(l.trace().threads())
                    .as("broker %d's CPU", l.broker())
                    .isNotEmpty()
                    .allSatisfy(t -> assertThat(t.atMs()).isBetween(l.stoppedAt(), l.endedAt()));
        }
        assertThat(LoadTestFiles.ROLLING_PACING
                        .readIn(out, List.of("leg", "at_s"), "written by the rolling run")
                        .rows())
                .extracting(RollingPacingRow::leg)
                .containsOnly(0, 1, 2)
                .contains(0, 1, 2);
        assertThat(LoadTestFiles.ROLLING_THREADS
                        .readIn(out, List.of("leg", "at_s", "cores"), "written by the rolling run")
                        .rows())
                .extracting(RollingThreadRow::leg)
                .containsOnly(0, 1, 2)
                .contains(0, 1, 2);
    }

    @Test
    void theRestartsSends_poolEveryTurn_andTheSteadyPhaseHasItsOwn() {
        RollingResult r = results.get(0);
        long turns = r.legs().stream().mapToLong(l -> l.sends().getTotalCount()).sum();
        assertThat(r.rollingFigures().count()).isEqualTo(turns);
        assertThat(r.steadyFigures().count()).isPositive();
        assertThat(r.p99Ratio()).isPositive();
    }

    @Test
    void rollingCsv_holdsEachTurnAndTheWhole_asTheResultSaysIt() {
        assertThat(soFar).hasSize(1);
        List<RollingRow> rows = LoadTestFiles.ROLLING
                .readIn(out, List.of("leg", "p99_ms"), "written by the rolling run")
                .rows();
        assertThat(rows).extracting(RollingRow::leg).containsExactly("0", "1", "2", "all");
        assertThat(rows.get(3).latency().sends())
                .isEqualTo(results.get(0).rollingFigures().count());
        assertThat(rows.get(3).leadsAtS())
                .isEqualTo(results.get(0).leadsAgainMs().getAsLong() / 1000.0);
    }

    @Test
    void noProcessOfTheClusterIsLeftBehind() {
        assertThat(PIDS).hasSizeGreaterThanOrEqualTo(4);
        for (long pid : PIDS) {
            assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false))
                    .as("pid %d alive", pid)
                    .isFalse();
        }
    }
}
