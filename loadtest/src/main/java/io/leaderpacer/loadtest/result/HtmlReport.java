package io.leaderpacer.loadtest.result;

import io.leaderpacer.loadtest.load.SecondSample;
import io.leaderpacer.loadtest.load.View;
import io.leaderpacer.loadtest.observe.PacingSample;
import io.leaderpacer.loadtest.observe.PartitionSample;
import io.leaderpacer.report.ChartPage;
import io.leaderpacer.report.ChartPage.Chart;
import io.leaderpacer.report.ChartPage.Marker;
import io.leaderpacer.report.ChartPage.Series;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The offline HTML report of a load test, in the simulator's style: settings, the tables, the findings, and per
 * round the P99 per second by class and by the broker's role, the broker's partitions and its CPU, with the round's
 * events marked; then the protected producers' P99 of every policy on one chart per round number, aligned at
 * unfencing.
 */
public final class HtmlReport {

    private static final List<View> LATENCY_VIEWS =
            List.of(View.ALL, View.PROTECTED, View.OTHER, View.LEADER, View.IN_SYNC_FOLLOWER);

    private HtmlReport() {}

    public static ChartPage page(LoadTestResult result, String command) {
        ChartPage.Builder page = ChartPage.builder("Leader Pacer load test (measured on a real Kafka cluster)");
        page.preformatted(String.join("\n", result.settingsLines()));
        page.paragraph("Command: " + command);
        page.section("What was seen");
        VerdictSentences.sentences(result).forEach(page::paragraph);
        page.section("Per policy (median and range over its rounds; KIP-1358's three criteria)");
        page.table(LoadTestTable.POLICY_HEADER, LoadTestTable.policyRows(result));
        page.section("What this run shows");
        Findings.of(result).forEach(page::paragraph);
        page.section("Per round");
        page.table(LoadTestTable.ROUND_HEADER, LoadTestTable.roundRows(result));
        overlays(page, result);
        for (RoundResult r : result.rounds()) {
            page.section(r.policy() + ", round " + r.round());
            List<Marker> markers = markers(r);
            page.chart(latencyChart(r).withLogScale().withMarkers(markers));
            page.chart(partitionChart(r).withSteps().withMarkers(markers));
            if (!r.trace().cpu().isEmpty()) {
                page.chart(cpuChart(r).withMarkers(markers));
            }
            if (r.paced()) {
                page.chart(pacingChart(r).withSteps().withMarkers(markers));
            }
        }
        return page.build();
    }

    static List<Marker> markers(RoundResult r) {
        List<Marker> m = new ArrayList<>();
        m.add(new Marker(r.moments().stoppedAtMs() / 1000.0, "stop"));
        m.add(new Marker(r.moments().restartedAtMs() / 1000.0, "start"));
        m.add(new Marker(r.moments().unfencedAtMs() / 1000.0, "unfenced"));
        m.add(new Marker((r.moments().unfencedAtMs() + r.moments().windowMs()) / 1000.0, "window end"));
        r.recovery().gateReleasedAtMs().ifPresent(t -> m.add(new Marker(t / 1000.0, "gate release")));
        r.recovery()
                .timeline()
                .physicalLimitMs()
                .ifPresent(t -> m.add(new Marker((r.moments().unfencedAtMs() + t) / 1000.0, "last ISR re-entry")));
        r.recovery().recoveredAtMs().ifPresent(t -> m.add(new Marker(t / 1000.0, "recovered")));
        return m;
    }

    private static Chart latencyChart(RoundResult r) {
        long last = r.latency().seconds().stream()
                .mapToLong(SecondSample::second)
                .max()
                .orElse(0);
        double[] x = new double[(int) last + 1];
        Arrays.setAll(x, i -> i);
        List<Series> series = new ArrayList<>();
        for (View v : LATENCY_VIEWS) {
            double[] y = new double[x.length];
            Arrays.fill(y, Double.NaN);
            for (SecondSample s : r.latency().seconds()) {
                if (s.view() == v) {
                    y[(int) s.second()] = s.p99Ms();
                }
            }
            series.add(new Series("P99 " + v.label(), y));
        }
        return Chart.of(
                "P99 produce latency per second (acks=all), by class and by the restarted broker's role",
                "P99 (ms)",
                x,
                series);
    }

    private static Chart partitionChart(RoundResult r) {
        List<PartitionSample> s = r.trace().samples();
        double[] x = s.stream().mapToDouble(p -> p.atMs() / 1000.0).toArray();
        return Chart.of(
                "The restarted broker's preferred partitions",
                "partitions",
                x,
                List.of(
                        new Series(
                                "preferred",
                                s.stream()
                                        .mapToDouble(PartitionSample::preferred)
                                        .toArray()),
                        new Series(
                                "in its ISR",
                                s.stream()
                                        .mapToDouble(PartitionSample::preferredInIsr)
                                        .toArray()),
                        new Series(
                                "led by it",
                                s.stream()
                                        .mapToDouble(PartitionSample::preferredLed)
                                        .toArray())));
    }

    private static Chart cpuChart(RoundResult r) {
        double[] x =
                r.trace().cpu().stream().mapToDouble(c -> c.atMs() / 1000.0).toArray();
        double[] cap = new double[x.length];
        Arrays.fill(cap, r.saturation().capCores());
        return Chart.of(
                "The restarted broker's CPU use (from /proc/PID/stat)",
                "cores",
                x,
                List.of(
                        new Series(
                                "CPU used",
                                r.trace().cpu().stream()
                                        .mapToDouble(RoundResult.CpuSample::cores)
                                        .toArray()),
                        new Series("quota", cap)));
    }

    /**
     * The rate catch-up pacing set for the restarted broker at each look, and its bytes behind: how the rate
     * controller moved against what it paced (0 where it was not throttled).
     */
    static Chart pacingChart(RoundResult r) {
        List<PacingSample> s = r.trace().pacing();
        double[] x = s.stream().mapToDouble(p -> p.atMs() / 1000.0).toArray();
        return Chart.of(
                "Catch-up pacing: the restarted broker's follower rate at each look, and its bytes behind",
                "MiB/s; GiB behind x 100",
                x,
                List.of(
                        new Series(
                                "rate MiB/s",
                                s.stream()
                                        .mapToDouble(p -> Math.max(0, p.rateBytes()) / 1048576.0)
                                        .toArray()),
                        new Series(
                                "behind, GiB x 100",
                                s.stream()
                                        .mapToDouble(p ->
                                                p.bytesBehind() < 0 ? Double.NaN : p.bytesBehind() * 100.0 / (1L << 30))
                                        .toArray())));
    }

    /** Per round number, every policy's protected P99 on one chart, x = seconds since unfencing. */
    private static void overlays(ChartPage.Builder page, LoadTestResult result) {
        Map<Integer, List<RoundResult>> byRound = new LinkedHashMap<>();
        for (RoundResult r : result.rounds()) {
            byRound.computeIfAbsent(r.round(), k -> new ArrayList<>()).add(r);
        }
        for (Map.Entry<Integer, List<RoundResult>> e : byRound.entrySet()) {
            List<RoundResult> rounds = e.getValue();
            long before = rounds.stream()
                    .mapToLong(r -> r.moments().unfencedAtMs() / 1000)
                    .max()
                    .orElse(0);
            long after = rounds.stream()
                    .mapToLong(r -> r.latency().seconds().stream()
                                    .mapToLong(SecondSample::second)
                                    .max()
                                    .orElse(0)
                            - r.moments().unfencedAtMs() / 1000)
                    .max()
                    .orElse(0);
            int n = (int) (before + after + 1);
            double[] x = new double[n];
            Arrays.setAll(x, i -> i - before);
            List<Series> series = new ArrayList<>();
            for (RoundResult r : rounds) {
                double[] y = new double[n];
                Arrays.fill(y, Double.NaN);
                long shift = before - r.moments().unfencedAtMs() / 1000;
                for (SecondSample s : r.latency().seconds()) {
                    long i = s.second() + shift;
                    if (s.view() == View.PROTECTED && i >= 0 && i < n) {
                        y[(int) i] = s.p99Ms();
                    }
                }
                series.add(new Series(r.policy(), y));
            }
            page.chart(Chart.of(
                            "Round " + e.getKey() + ": P99 of the protected partitions' producers, by policy"
                                    + " (x: seconds since unfencing; negative = before)",
                            "P99 (ms)",
                            x,
                            series)
                    .withLogScale()
                    .withMarkers(List.of(new Marker(0, "unfenced"))));
        }
    }
}
