package io.leaderpacer.loadtest;

import io.leaderpacer.loadtest.load.LatencyFigures;
import io.leaderpacer.loadtest.load.View;
import io.leaderpacer.loadtest.observe.PartitionSample;
import io.leaderpacer.loadtest.result.CsvFiles;
import io.leaderpacer.loadtest.result.HtmlReport;
import io.leaderpacer.loadtest.result.LoadTestResult;
import io.leaderpacer.loadtest.result.RoundResult;
import io.leaderpacer.loadtest.steady.WarmUpSettings;
import io.leaderpacer.loadtest.testbed.LocalTarget;
import io.leaderpacer.loadtest.testbed.Saturation;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The load test's own invariants on a short real run: one round per policy, a small backlog, on the test's own
 * multi-process cluster. It does not assert which policy wins: that is what the full run measures.
 */
@Tag("cluster")
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class LoadTestSmokeTest {

    private static final List<Long> PIDS = new ArrayList<>();
    private static LoadTestResult result;
    private static Saturation saturation;

    @TempDir
    static Path out;

    /** The whole load test runs here, once for the class: bounded on its own (the class's bound is per test). */
    @BeforeAll
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    static void run() throws Exception {
        LoadTestSettings s = LoadTestSettings.builder()
                .brokerHeap("384m")
                .saturation(true, 0.5)
                .partitions(12, 24)
                .load(50, 512)
                .backlog(128L << 20, 1.0, 11)
                .warmup(new WarmUpSettings(Duration.ofSeconds(5), Duration.ofSeconds(20)))
                .steady(Duration.ofSeconds(8))
                .window(Duration.ofSeconds(15))
                .roundLimit(Duration.ofSeconds(90))
                .rounds(1)
                .policies(
                        List.of(NamedPolicy.parse("immediate", 29, 2), NamedPolicy.parse("kip-example-scaled", 29, 2)))
                .checkIntervalSeconds(2)
                .out(out)
                .build();
        saturation = Saturation.of(s.cluster().cpuCapCores());
        result = new LoadTest(
                        s,
                        () -> {
                            LocalTarget t =
                                    LocalTarget.start(3, "384m", Map.of("auto.leader.rebalance.enable", "false"));
                            PIDS.addAll(t.pids());
                            return t;
                        },
                        saturation,
                        System.out::println)
                .run("the smoke-test cluster");
        CsvFiles.write(result, out);
        HtmlReport.page(result, "smoke test").writeTo(out.resolve("report.html"));
    }

    @Test
    void everyPolicyRanOneRound_inOrder() {
        assertThat(result.rounds()).extracting(RoundResult::policy).containsExactly("immediate", "kip-example-scaled");
    }

    @Test
    void everyPhaseRan_inOrder_andItsHistogramsAreNotEmpty() {
        for (RoundResult r : result.rounds()) {
            assertThat(r.moments().stoppedAtMs()).isLessThan(r.moments().restartedAtMs());
            assertThat(r.moments().restartedAtMs()).isLessThan(r.moments().unfencedAtMs());
            assertThat(r.moments().endedAtMs())
                    .isGreaterThanOrEqualTo(
                            r.moments().unfencedAtMs() + r.moments().windowMs());
            assertThat(r.latency().steady().get(View.ALL).count()).isPositive();
            assertThat(r.latency().window().get(View.ALL).count()).isPositive();
            assertThat(r.latency().window().get(View.PROTECTED).count()).isPositive();
            assertThat(r.latency().seconds()).isNotEmpty();
            assertThat(r.trace().samples()).isNotEmpty();
        }
    }

    @Test
    void catchUpBytes_areMeasured_andEndWithTheBacklogOnTheBroker_andNothingBehind() {
        for (RoundResult r : result.rounds()) {
            List<PartitionSample> known = r.trace().samples().stream()
                    .filter(x ->
                            x.atMs() >= r.moments().restartedAtMs() && x.hostedBytes() >= 0 && x.bytesBehind() >= 0)
                    .toList();
            assertThat(known)
                    .as("%s: samples with log-dir sizes after the restart", r.policy())
                    .hasSizeGreaterThan(2);
            PartitionSample first = known.get(0);
            PartitionSample last = known.get(known.size() - 1);
            String when = String.format(
                    Locale.ROOT,
                    "%s: first look %.1f s after unfencing, saturation %s",
                    r.policy(),
                    (first.atMs() - r.moments().unfencedAtMs()) / 1000.0,
                    r.saturation().mode());
            // How much is left to fetch at the first look is timing: the broker answers describeLogDirs only once
            // it is unfenced, its fetchers start before that, and 128 MiB can be fetched by then even under the
            // 0.5-core quota (seen in CI and here). What holds whenever the first look comes: what the broker holds
            // plus what it lacks is everything its leaders hold, so at least the backlog written while it was down
            // (3 replicas on 3 brokers: it hosts every partition). A "behind" that missed what is not yet fetched
            // fails this on an early look. ReplicaBytesTest checks the arithmetic on hand-made cases.
            assertThat(first.hostedBytes() + first.bytesBehind())
                    .as("%s: hosted + behind at the first look", when)
                    .isGreaterThanOrEqualTo(120L << 20);
            assertThat(last.bytesBehind())
                    .as("%s: behind at the end", r.policy())
                    .isLessThan(1L << 20);
            // Whenever the first look came, the backlog ends up on the broker (3 replicas on 3 brokers: it hosts
            // every partition), so its log-dir sizes must hold at least what was written while it was down.
            assertThat(last.hostedBytes())
                    .as("%s: hosted at the end", r.policy())
                    .isGreaterThanOrEqualTo(120L << 20);
            // What it no longer lags by, it fetched: its replicas grew by at least that much.
            assertThat(last.hostedBytes() - first.hostedBytes())
                    .as("%s: fetched", r.policy())
                    .isGreaterThanOrEqualTo(first.bytesBehind() - last.bytesBehind());
        }
    }

    @Test
    void classesAndRoles_eachPartitionTheSends() {
        for (RoundResult r : result.rounds()) {
            for (Map<View, LatencyFigures> phase :
                    List.of(r.latency().steady(), r.latency().window())) {
                long all = phase.get(View.ALL).count();
                assertThat(phase.get(View.PROTECTED).count()
                                + phase.get(View.OTHER).count())
                        .isEqualTo(all);
                assertThat(phase.get(View.LEADER).count()
                                + phase.get(View.IN_SYNC_FOLLOWER).count()
                                + phase.get(View.NOT_IN_ISR).count())
                        .isEqualTo(all);
            }
        }
    }

    @Test
    void recoveryTime_isAtLeastThePhysicalLimit() {
        for (RoundResult r : result.rounds()) {
            assertThat(r.recoveryMs()).as("round %s recovered", r.policy()).isPresent();
            assertThat(r.recovery().timeline().physicalLimitMs())
                    .as("every preferred partition re-entered")
                    .isPresent();
            assertThat(r.recoveryMs().getAsLong())
                    .isGreaterThanOrEqualTo(
                            r.recovery().timeline().physicalLimitMs().getAsLong());
        }
    }

    @Test
    void aCpuQuotaThatWasSet_isVisibleInTheBrokersCgroup_andItsUseAndThrottlingWereMeasured() {
        for (RoundResult r : result.rounds()) {
            if (saturation.active()) {
                assertThat(r.saturation().visibleInCgroup()).isTrue();
                assertThat(r.saturation().catchUpBusyCores()).isPresent();
                assertThat(r.trace().cpu()).isNotEmpty();
                if (r.saturation().mode().startsWith("cgroup")) {
                    assertThat(r.trace().cpu())
                            .as("the quota's CFS counters, read from the group's cpu.stat")
                            .anySatisfy(c -> assertThat(c.throttling())
                                    .hasValueSatisfying(
                                            t -> assertThat(t.periods()).isPositive()));
                }
            } else {
                assertThat(r.saturation().mode()).isEqualTo("none");
            }
        }
    }

    @Test
    void reportsAreWritten() throws Exception {
        for (String f : List.of(
                "rounds.csv",
                "latency-seconds.csv",
                "latency-buckets.csv",
                "partitions.csv",
                "agent-runs.csv",
                "report.html")) {
            assertThat(Files.size(out.resolve(f))).as(f).isGreaterThan(100);
        }
        assertThat(Files.readString(out.resolve("report.html")))
                .contains("unfenced")
                .contains("protected");
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
