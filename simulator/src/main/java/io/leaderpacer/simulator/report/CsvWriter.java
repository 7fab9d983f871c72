package io.leaderpacer.simulator.report;

import io.leaderpacer.simulator.run.ClassFigures;
import io.leaderpacer.simulator.run.KipAcceptance;
import io.leaderpacer.simulator.run.PolicyOutcome;
import io.leaderpacer.simulator.run.ScenarioResult;
import io.leaderpacer.simulator.run.TimeSeries;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The CSV files: a scenario's time series (one row per policy and time bucket), its P99 per broker and class, and a
 * summary of every scenario and policy run, in the formats of {@link SimulationFiles}: RFC 4180 text with a header
 * row, numbers in a fixed locale-free format.
 */
public final class CsvWriter {

    private CsvWriter() {}

    /** Time series of every policy of a scenario, long format: {@code scenario,policy,seed,time_s,...}. */
    public static String timeSeries(ScenarioResult result) {
        Set<String> columns = new LinkedHashSet<>();
        for (PolicyOutcome o : result.outcomes()) {
            columns.addAll(o.series().columnNames());
        }
        List<Map<String, String>> rows = new ArrayList<>();
        for (PolicyOutcome o : result.outcomes()) {
            TimeSeries ts = o.series();
            for (int r = 0; r < ts.rows(); r++) {
                Map<String, String> row = new LinkedHashMap<>();
                row.put("scenario", result.scenario().name());
                row.put("policy", o.policy().name());
                row.put("seed", Long.toString(result.seed()));
                for (String c : columns) {
                    if (ts.has(c)) {
                        row.put(c, format(c, ts.value(c, r)));
                    }
                }
                rows.add(row);
            }
        }
        return SimulationFiles.timeSeries(List.copyOf(columns)).text(rows);
    }

    /** One row per scenario and policy with the seed's figures and verdicts. */
    public static String summary(List<ScenarioResult> results) {
        return SimulationFiles.SUMMARY.text(summaryRows(results));
    }

    /** The summary's rows, in the order of the results and their policies. */
    public static List<SummaryRow> summaryRows(List<ScenarioResult> results) {
        List<SummaryRow> rows = new ArrayList<>();
        for (ScenarioResult result : results) {
            for (PolicyOutcome o : result.outcomes()) {
                rows.add(summaryRow(result, o));
            }
        }
        return rows;
    }

    private static SummaryRow summaryRow(ScenarioResult result, PolicyOutcome o) {
        KipAcceptance v = result.acceptance(o);
        PolicyOutcome.KipFigures kip = o.kip();
        PolicyOutcome.ControllerActivity c = o.controller();
        ClassFigures classes = o.classes();
        int worst = SimulationTable.worstBroker(o);
        return new SummaryRow(
                key(result, o),
                new SummaryRow.Kip(
                        kip.steadyP99Ms(),
                        kip.windowP99Ms(),
                        v.p99Ratio(),
                        kip.timeoutCount(),
                        kip.recovered() ? kip.recoveryMs() / 1000.0 : Double.NaN,
                        v.recoveryRatio()),
                new SummaryRow.Controller(
                        c.elections(),
                        c.failoverElections(),
                        c.runs(),
                        c.maxElectionsInRun(),
                        c.skippedByGate(),
                        c.controllerFailovers()),
                new SummaryRow.Checks(
                        v.p99Ok(),
                        v.timeoutsOk(),
                        v.recoveryOk(),
                        v.pass() ? "PASS" : "FAIL",
                        o.end().invariantChecks()),
                new SummaryRow.Classes(
                        classes.protectedRatio(),
                        classes.otherRatio(),
                        worst < 0 ? null : worst,
                        worst < 0 ? Double.NaN : classes.brokerRatio(worst)),
                new SummaryRow.Limits(
                        classes.reentries().lastSeconds(),
                        o.recoveryVsPhysicalLimit(),
                        classes.gateReleaseMs() < 0 ? Double.NaN : classes.gateReleaseMs() / 1000.0));
    }

    /** P99 per leader broker and per class, steady and over the window: one row per scenario, policy and broker. */
    public static String brokers(ScenarioResult result) {
        List<BrokerRow> rows = new ArrayList<>();
        for (PolicyOutcome o : result.outcomes()) {
            SimulationKey key = key(result, o);
            ClassFigures classes = o.classes();
            double[][] b = classes.brokerP99Ms();
            for (int i = 0; i < b.length; i++) {
                rows.add(new BrokerRow(key, Integer.toString(i), b[i][0], b[i][1], b[i][1] / b[i][0]));
            }
            rows.add(new BrokerRow(
                    key,
                    "protected",
                    classes.steadyP99ProtectedMs(),
                    classes.windowP99ProtectedMs(),
                    classes.protectedRatio()));
            rows.add(new BrokerRow(
                    key, "other", classes.steadyP99OtherMs(), classes.windowP99OtherMs(), classes.otherRatio()));
        }
        return SimulationFiles.BROKERS.text(rows);
    }

    private static SimulationKey key(ScenarioResult result, PolicyOutcome o) {
        return new SimulationKey(result.scenario().name(), o.policy().name(), result.seed());
    }

    private static String format(String column, double v) {
        if (column.equals("time_s")) {
            return Numbers.fixed(v, 0);
        }
        if (column.endsWith("_ms")
                || column.startsWith("util_")
                || column.equals("requests")
                || column.equals("timeouts")) {
            return Numbers.fixed(v, 3);
        }
        return Numbers.fixed(v, 0);
    }
}
