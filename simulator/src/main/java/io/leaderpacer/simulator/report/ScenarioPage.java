package io.leaderpacer.simulator.report;

import io.leaderpacer.report.ChartPage;
import io.leaderpacer.report.text.DurationText;
import io.leaderpacer.simulator.run.PolicyOutcome;
import io.leaderpacer.simulator.run.ScenarioResult;
import io.leaderpacer.simulator.run.TimeSeries;
import io.leaderpacer.simulator.scenario.ModelKey;
import io.leaderpacer.simulator.scenario.PolicySpec;
import io.leaderpacer.simulator.scenario.Scenario;
import io.leaderpacer.simulator.scenario.ScenarioEvent;
import io.leaderpacer.simulator.scenario.TopicSpec;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/**
 * Turns a scenario's results into a {@link ChartPage}: what was simulated, the comparison table,
 * and charts over time of P99 latency, leaders and out-of-sync partitions of the watched brokers,
 * and their gate state, one line per policy.
 */
public final class ScenarioPage {

    private ScenarioPage() {}

    public static ChartPage of(ScenarioResult result, String commandLine) {
        Scenario s = result.scenario();
        ChartPage.Builder page = ChartPage.builder("Leader Pacer simulation (modelled): " + s.name());
        page.paragraph("Every figure on this page is modelled by the simulator, not measured on a Kafka cluster. "
                + s.description());
        page.paragraph(String.format(
                Locale.ROOT,
                "Seed %d. %d brokers, %d partitions in %d topics, %s simulated. " + "Reproduce with: %s",
                result.seed(),
                s.brokers(),
                s.totalPartitions(),
                s.topics().size(),
                DurationText.format(s.endMs()),
                commandLine));

        results(page, result);
        perClass(page, result);
        policies(page, s);
        whatHappens(page, s);
        overTime(page, result);
        return page.build();
    }

    /** The comparison table against KIP-1358's acceptance criteria, and what its columns mean. */
    private static void results(ChartPage.Builder page, ScenarioResult result) {
        page.section("Results against KIP-1358's acceptance criteria");
        page.table(SimulationTable.HEADER, SimulationTable.rows(result));
        page.paragraph("P99 ratio: modelled P99 produce latency over the window from the restarted broker's unfencing ("
                + windowText(result.scenario())
                + "), divided by the steady-state P99 before the first event. Protected: partitions "
                + "whose preferred leader is a restarted broker. Worst broker: the leader broker whose P99 rose most. "
                + "Recovery: from unfencing until every restarted broker leads 99% of its preferred partitions; "
                + "'vs baseline' divides by the baseline's, 'vs physical limit' by the last preferred ISR re-entry.");
    }

    /** P99 per class (protected, other, cluster-wide) and the worst leader broker, one row per policy. */
    private static void perClass(ChartPage.Builder page, ScenarioResult result) {
        page.section("P99 per class and per leader broker (modelled)");
        List<List<String>> perClass = new ArrayList<>();
        for (PolicyOutcome o : result.outcomes()) {
            List<String> row = new ArrayList<>(List.of(
                    o.policy().name(),
                    Numbers.fixed(o.classes().windowP99ProtectedMs(), 1),
                    Numbers.ratio(o.classes().protectedRatio()),
                    Numbers.fixed(o.classes().windowP99OtherMs(), 1),
                    Numbers.ratio(o.classes().otherRatio()),
                    Numbers.fixed(o.kip().windowP99Ms(), 1)));
            int worst = SimulationTable.worstBroker(o);
            row.add(
                    worst < 0
                            ? "-"
                            : "b" + worst + " " + Numbers.fixed(o.classes().brokerP99Ms()[worst][1], 1) + " ms ("
                                    + Numbers.ratio(o.classes().brokerRatio(worst)) + ")");
            perClass.add(row);
        }
        page.table(
                List.of(
                        "policy",
                        "protected P99 ms",
                        "protected ratio",
                        "other P99 ms",
                        "other ratio",
                        "cluster-wide P99 ms",
                        "worst broker P99"),
                perClass);
    }

    /** Each policy's name, what it is and its configuration changes. */
    private static void policies(ChartPage.Builder page, Scenario s) {
        page.section("Policies");
        List<List<String>> policies = new ArrayList<>();
        for (PolicySpec p : s.policies()) {
            StringBuilder kv = new StringBuilder();
            p.configOverrides()
                    .forEach((k, v) -> kv.append(kv.length() == 0 ? "" : "\n")
                            .append(k)
                            .append('=')
                            .append(v));
            if (p.replicationThrottleBytesPerSecond() > 0) {
                kv.append(kv.length() == 0 ? "" : "\n")
                        .append(String.format(
                                Locale.ROOT,
                                "replication throttle=%.0f MB/s",
                                p.replicationThrottleBytesPerSecond() / 1e6));
            }
            policies.add(List.of(p.name(), p.description(), kv.length() == 0 ? "(Kafka's defaults)" : kv.toString()));
        }
        page.table(List.of("policy", "what it is", "configuration (key=value, changes from the defaults)"), policies);
    }

    /** The scenario's events and topics. */
    private static void whatHappens(ChartPage.Builder page, Scenario s) {
        page.section("What happens");
        List<List<String>> events = new ArrayList<>();
        for (ScenarioEvent e : s.events()) {
            events.add(List.of(DurationText.format(e.atMs()), describe(e)));
        }
        page.table(List.of("at", "event"), events);
        List<List<String>> topics = new ArrayList<>();
        for (TopicSpec t : s.topics()) {
            topics.add(List.of(
                    t.name(),
                    Integer.toString(t.layout().partitions()),
                    Integer.toString(t.layout().replicationFactor()),
                    String.format(Locale.ROOT, "%.1f", t.traffic().produceBytesPerSecond() / 1e6),
                    String.format(Locale.ROOT, "%.0f", t.traffic().produceRequestsPerSecond()),
                    t.traffic().skew().toString()));
        }
        page.table(
                List.of("topic", "partitions", "replication", "produce MB/s", "produce requests/s", "byte skew"),
                topics);
    }

    /** The charts over time: P99 by class, then per watched broker its utilisation, leaders, out-of-sync partitions and gate. */
    private static void overTime(ChartPage.Builder page, ScenarioResult result) {
        Scenario s = result.scenario();
        page.section("Over time (modelled)");
        page.paragraph("Lines of policies whose series are identical are drawn once, named together. Hover a chart "
                + "for the values. Dashed lines: events (stop, unfenced, end of the window, and for the baseline and "
                + "the first other policy: gate release, physical limit, recovery).");
        double[] x = result.baseline().series().column("time_s");
        List<ChartPage.Marker> marks = markers(result);
        long bucketS = s.model().bucketMs() / 1000;
        page.chart(chart(
                        "P99 produce latency per " + bucketS + " s bucket, all partitions",
                        "P99 (ms, log scale)",
                        x,
                        result,
                        "p99_ms")
                .withLogScale()
                .withMarkers(marks));
        page.chart(chart(
                        "P99 of the protected partitions (preferred leader = a restarted broker)",
                        "P99 (ms, log scale)",
                        x,
                        result,
                        "p99_protected_ms")
                .withLogScale()
                .withMarkers(marks));
        page.chart(chart("P99 of the other partitions", "P99 (ms, log scale)", x, result, "p99_other_ms")
                .withLogScale()
                .withMarkers(marks));
        for (int b : watched(result)) {
            page.chart(chart("Utilisation of broker " + b + " (modelled)", "utilisation", x, result, "util_b" + b)
                    .withMarkers(marks));
            page.chart(chart("Leaders on broker " + b, "partitions led", x, result, "leaders_b" + b)
                    .withSteps()
                    .withMarkers(marks));
            page.chart(chart(
                            "Out-of-sync preferred partitions of broker " + b + " (OutOfSyncPreferredPartitionCount)",
                            "partitions",
                            x,
                            result,
                            "out_of_sync_b" + b)
                    .withMarkers(marks));
            page.chart(chart(
                            "Gate state of broker " + b + " (0 open, 1 gated, 2 released by max-wait)",
                            "state",
                            x,
                            result,
                            "gate_b" + b)
                    .withSteps()
                    .withMarkers(marks));
        }
    }

    private static String windowText(Scenario s) {
        double w = s.model().get(ModelKey.RECOVERY_WINDOW_SECONDS);
        return w <= 0 ? "until recovery" : DurationText.format(Math.round(w * 1000));
    }

    /** Stops and unfencings from the scenario; window end, gate release, physical limit and recovery from runs. */
    static List<ChartPage.Marker> markers(ScenarioResult result) {
        Scenario s = result.scenario();
        List<ChartPage.Marker> out = new ArrayList<>();
        for (ScenarioEvent e : s.events()) {
            if (e instanceof ScenarioEvent.Restart r) {
                out.add(new ChartPage.Marker(r.atMs() / 1000.0, "b" + r.broker() + " stop"));
            }
        }
        PolicyOutcome base = result.baseline();
        if (base.kip().firstUnfenceMs() >= 0) {
            double u = base.kip().firstUnfenceMs() / 1000.0;
            out.add(new ChartPage.Marker(u, "unfenced"));
            double w = s.model().get(ModelKey.RECOVERY_WINDOW_SECONDS);
            if (w > 0) {
                out.add(new ChartPage.Marker(u + w, "window end"));
            }
            List<PolicyOutcome> shown = result.outcomes().size() > 1
                    ? List.of(base, result.outcomes().get(1))
                    : List.of(base);
            for (PolicyOutcome o : shown) {
                String n = o.policy().name();
                if (o.classes().gateReleaseMs() >= 0) {
                    out.add(new ChartPage.Marker(u + o.classes().gateReleaseMs() / 1000.0, n + ": gate release"));
                }
                double limit = o.classes().reentries().lastSeconds();
                if (limit > 0) {
                    out.add(new ChartPage.Marker(u + limit, n + ": physical limit"));
                }
                if (o.kip().recovered()) {
                    out.add(new ChartPage.Marker(u + o.kip().recoveryMs() / 1000.0, n + ": recovered"));
                }
            }
        }
        return out;
    }

    private static TreeSet<Integer> watched(ScenarioResult result) {
        TreeSet<Integer> ids = new TreeSet<>();
        for (PolicyOutcome o : result.outcomes()) {
            for (Map.Entry<Integer, Integer> e : o.end().finalLeaders().entrySet()) {
                ids.add(e.getKey());
            }
        }
        return ids;
    }

    private static ChartPage.Chart chart(
            String title, String yLabel, double[] x, ScenarioResult result, String column) {
        // Identical series would hide one another: they are drawn once, under all their names.
        List<String> names = new ArrayList<>();
        List<double[]> values = new ArrayList<>();
        for (PolicyOutcome o : result.outcomes()) {
            TimeSeries ts = o.series();
            if (ts.has(column) && ts.rows() == x.length) {
                double[] v = ts.column(column);
                int same = -1;
                for (int i = 0; i < values.size(); i++) {
                    if (Arrays.equals(values.get(i), v)) {
                        same = i;
                        break;
                    }
                }
                if (same >= 0) {
                    names.set(same, names.get(same) + " = " + o.policy().name());
                } else {
                    names.add(o.policy().name());
                    values.add(v);
                }
            }
        }
        List<ChartPage.Series> series = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            series.add(new ChartPage.Series(
                    names.get(i) + (names.get(i).contains(" = ") ? " (identical)" : ""), values.get(i)));
        }
        return ChartPage.Chart.of(title, yLabel, x, series);
    }

    static String describe(ScenarioEvent e) {
        if (e instanceof ScenarioEvent.Restart r) {
            return "broker " + r.broker() + (r.crash() ? " crashes" : " restarts (controlled shutdown)") + ", down "
                    + DurationText.format(r.downMs()) + (r.diskReplaced() ? ", disk replaced (whole log to copy)" : "")
                    + (r.stuckPartitions() > 0
                            ? ", " + r.stuckPartitions() + " preferred partitions never catch up"
                            : "");
        }
        if (e instanceof ScenarioEvent.FollowerStall f) {
            return String.format(
                    Locale.ROOT,
                    "%.1f%% of broker %d's follower replicas stall for %s",
                    f.fraction() * 100,
                    f.broker(),
                    DurationText.format(f.durationMs()));
        }
        if (e instanceof ScenarioEvent.ControllerFailover) {
            return "the active controller fails over (balancer memory lost)";
        }
        ScenarioEvent.ConfigChange c = (ScenarioEvent.ConfigChange) e;
        return "dynamic configuration change " + c.updates();
    }
}
