package io.leaderpacer.loadtest.result;

import io.leaderpacer.loadtest.load.LatencyFigures;
import io.leaderpacer.loadtest.load.View;
import io.leaderpacer.report.loadtest.AgentRunRow;
import io.leaderpacer.report.loadtest.CpuRow;
import io.leaderpacer.report.loadtest.LatencyBucketRow;
import io.leaderpacer.report.loadtest.LatencySecondRow;
import io.leaderpacer.report.loadtest.LoadTestFiles;
import io.leaderpacer.report.loadtest.PacingRow;
import io.leaderpacer.report.loadtest.PartitionRow;
import io.leaderpacer.report.loadtest.RoundKey;
import io.leaderpacer.report.loadtest.RoundRow;
import io.leaderpacer.report.loadtest.SteadyWindowRow;
import io.leaderpacer.report.loadtest.ThreadCpuRow;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * A load test's result as the rows of its CSV files ({@link LoadTestFiles}: the formats the simulator's calibration
 * reads), every round in each file; times become seconds, names lower case, what a round did not measure an empty
 * cell.
 *
 * <p>Each file is then one line: {@code LoadTestFiles.ROUNDS.writeIn(dir, CsvRows.rounds(result))}.
 */
final class CsvRows {

    private CsvRows() {}

    /** {@code rounds.csv}: one line per round, the figures of the round table. */
    static List<RoundRow> rounds(LoadTestResult result) {
        return perRound(result, (key, r) -> List.of(round(key, r)));
    }

    private static RoundRow round(RoundKey key, RoundResult r) {
        Timeline t = r.recovery().timeline();
        RoundResult.SaturationFigures s = r.saturation();
        return new RoundRow(
                key,
                new RoundRow.Latency(
                        new RoundRow.SteadyP99(
                                p99(r.latency().steady(), View.ALL),
                                p99(r.latency().steady(), View.PROTECTED)),
                        new RoundRow.WindowP99(
                                p99(r.latency().window(), View.ALL),
                                p99(r.latency().window(), View.PROTECTED),
                                p99(r.latency().window(), View.OTHER),
                                p99(r.latency().window(), View.LEADER),
                                p99(r.latency().window(), View.IN_SYNC_FOLLOWER),
                                p99(r.latency().window(), View.NOT_IN_ISR)),
                        r.timeouts(),
                        r.failures()),
                new RoundRow.Timeline(
                        r.moments().stoppedAtMs() / 1000.0,
                        r.moments().restartedAtMs() / 1000.0,
                        r.moments().unfencedAtMs() / 1000.0,
                        r.moments().windowMs() / 1000.0,
                        r.moments().endedAtMs() / 1000.0),
                new RoundRow.Recovery(
                        r.recoveryMs().isPresent() ? r.recoveryMs().getAsLong() / 1000.0 : Double.NaN,
                        r.recovery().gateReleasedAtMs().isPresent()
                                ? (r.recovery().gateReleasedAtMs().getAsLong()
                                                - r.moments().unfencedAtMs())
                                        / 1000.0
                                : Double.NaN,
                        r.batchesToBroker().size()),
                new RoundRow.Reentry(
                        seconds(t.firstMs()),
                        seconds(t.p50Ms()),
                        seconds(t.p90Ms()),
                        seconds(t.lastMs()),
                        t.partitions(),
                        t.reentered()),
                new RoundRow.CpuSaturation(
                        s.mode(),
                        s.capCores(),
                        s.visibleInCgroup(),
                        nan(s.catchUpBusyCores()),
                        nan(s.steadyCores()),
                        nan(s.afterCatchUpCores())));
    }

    /** {@code latency-seconds.csv}: per second and view. */
    static List<LatencySecondRow> latencySeconds(LoadTestResult result) {
        return perSample(
                result,
                r -> r.latency().seconds(),
                (key, s) -> new LatencySecondRow(
                        key,
                        s.second(),
                        lower(s.view()),
                        s.count(),
                        s.errors(),
                        new LatencySecondRow.Latency(s.p50Ms(), s.p99Ms(), s.maxMs())));
    }

    /** {@code latency-buckets.csv}: the steady and window distributions. */
    static List<LatencyBucketRow> latencyBuckets(LoadTestResult result) {
        return perSample(
                result,
                r -> r.latency().buckets(),
                (key, b) -> new LatencyBucketRow(key, lower(b.phase()), lower(b.view()), b.upToMs(), b.count()));
    }

    /** {@code partitions.csv}: the restarted broker's partitions over time. */
    static List<PartitionRow> partitions(LoadTestResult result) {
        return perSample(
                result,
                r -> r.trace().samples(),
                (key, s) -> new PartitionRow(
                        key,
                        s.atMs() / 1000.0,
                        lower(s.status()),
                        new PartitionRow.Preferred(s.preferred(), s.preferredLed(), s.preferredInIsr()),
                        new PartitionRow.Hosted(
                                s.hosted(), s.hostedInIsr(), known(s.hostedBytes()), known(s.bytesBehind())),
                        new PartitionRow.Internal(
                                s.internal().hosted(),
                                s.internal().inIsr(),
                                s.internal().preferred(),
                                s.internal().preferredLed())));
    }

    /** {@code cpu.csv}: the restarted broker's CPU use over time. */
    static List<CpuRow> cpu(LoadTestResult result) {
        return perSample(
                result,
                r -> r.trace().cpu(),
                (key, c) -> c.throttling()
                        .map(t -> new CpuRow(
                                key,
                                c.atMs() / 1000.0,
                                c.cores(),
                                t.periods(),
                                t.throttledPeriods(),
                                t.throttledNanos() / 1e6))
                        .orElseGet(() -> new CpuRow(key, c.atMs() / 1000.0, c.cores())));
    }

    /** {@code threads.csv}: the restarted broker's CPU use by thread group. */
    static List<ThreadCpuRow> threads(LoadTestResult result) {
        return perSample(
                result,
                r -> r.trace().threads(),
                (key, t) -> new ThreadCpuRow(key, t.atMs() / 1000.0, lower(t.group()), t.cores()));
    }

    /** {@code agent-runs.csv}: every agent run. */
    static List<AgentRunRow> agentRuns(LoadTestResult result) {
        return perSample(
                result,
                r -> r.trace().agentRuns(),
                (key, a) -> new AgentRunRow(
                        key, a.atMs() / 1000.0, a.elected(), a.electedToBroker(), a.gated(), a.failed()));
    }

    /** {@code steady-windows.csv}: each round's steady phase in windows of 5 s, per view. */
    static List<SteadyWindowRow> steadyWindows(LoadTestResult result) {
        return perSample(
                result,
                r -> r.latency().steadyWindows(),
                (key, w) -> new SteadyWindowRow(key, w.index(), lower(w.view()), w.count(), w.p99Ms()));
    }

    /** {@code pacing.csv}: catch-up pacing's looks at the restarted broker. */
    static List<PacingRow> pacing(LoadTestResult result) {
        return perSample(
                result,
                r -> r.trace().pacing(),
                (key, p) -> new PacingRow(
                        key,
                        p.atMs() / 1000.0,
                        known(p.rateBytes()),
                        known(p.bytesBehind()),
                        p.reason(),
                        p.problem(),
                        p.changes()));
    }

    private static <S, R> List<R> perSample(
            LoadTestResult result, Function<RoundResult, List<S>> samples, BiFunction<RoundKey, S, R> row) {
        return perRound(
                result,
                (key, r) ->
                        samples.apply(r).stream().map(s -> row.apply(key, s)).toList());
    }

    private static <R> List<R> perRound(LoadTestResult result, BiFunction<RoundKey, RoundResult, List<R>> rows) {
        List<R> out = new ArrayList<>();
        for (RoundResult r : result.rounds()) {
            out.addAll(rows.apply(new RoundKey(r.policy(), r.round()), r));
        }
        return out;
    }

    private static double p99(Map<View, LatencyFigures> figures, View view) {
        return figures.get(view).p99Ms();
    }

    private static double seconds(long ms) {
        return ms < 0 ? Double.NaN : ms / 1000.0;
    }

    private static double nan(OptionalDouble d) {
        return d.isPresent() ? d.getAsDouble() : Double.NaN;
    }

    /** A count of bytes, null (an empty cell) when negative: not known. */
    /** A byte count the agent may not have known (-1) as a cell: empty when unknown. */
    static Long known(long bytes) {
        return bytes < 0 ? null : bytes;
    }

    static String lower(Enum<?> e) {
        return e.name().toLowerCase(Locale.ROOT);
    }
}
