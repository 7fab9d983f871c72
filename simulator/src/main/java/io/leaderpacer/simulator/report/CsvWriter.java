package io.leaderpacer.simulator.report;

import io.leaderpacer.simulator.run.PolicyOutcome;
import io.leaderpacer.simulator.run.ScenarioResult;
import io.leaderpacer.simulator.run.TimeSeries;
import io.leaderpacer.simulator.run.Verdict;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The CSV files: a scenario's time series (one row per policy and time bucket) and a summary
 * of every scenario and policy run. Plain RFC 4180 text with a header row, numbers in a fixed
 * locale-free format.
 */
public final class CsvWriter {

    private CsvWriter() {
    }

    /** Time series of every policy of a scenario, long format: {@code policy,time_s,...}. */
    public static String timeSeries(ScenarioResult result) {
        Set<String> columns = new LinkedHashSet<>();
        for (PolicyOutcome o : result.outcomes()) {
            columns.addAll(o.series().columnNames());
        }
        StringBuilder sb = new StringBuilder("scenario,policy,seed");
        for (String c : columns) {
            sb.append(',').append(c);
        }
        sb.append('\n');
        for (PolicyOutcome o : result.outcomes()) {
            TimeSeries ts = o.series();
            for (int r = 0; r < ts.rows(); r++) {
                sb.append(result.scenario().name()).append(',').append(field(o.policy().name())).append(',').append(result.seed());
                for (String c : columns) {
                    sb.append(',');
                    if (ts.has(c)) {
                        sb.append(format(c, ts.value(c, r)));
                    }
                }
                sb.append('\n');
            }
        }
        return sb.toString();
    }

    /** One row per scenario and policy with the seed's figures and verdicts. */
    public static String summary(List<ScenarioResult> results) {
        StringBuilder sb = new StringBuilder("scenario,policy,seed,steady_p99_ms,window_p99_ms,p99_ratio,timeouts,"
                + "recovery_s,recovery_ratio,elections,failover_elections,runs,max_elections_in_run,skipped_by_gate,"
                + "controller_failovers,invariant_checks,p99_ok,timeouts_ok,recovery_ok,verdict,protected_p99_ratio,"
                + "other_p99_ratio,worst_broker,worst_broker_p99_ratio,physical_limit_s,recovery_vs_physical_limit,"
                + "gate_release_s\n");
        for (ScenarioResult result : results) {
            for (PolicyOutcome o : result.outcomes()) {
                Verdict v = result.verdict(o);
                sb.append(result.scenario().name()).append(',').append(field(o.policy().name())).append(',').append(result.seed())
                        .append(',').append(Numbers.fixed(o.kip().steadyP99Ms(), 3))
                        .append(',').append(Numbers.fixed(o.kip().windowP99Ms(), 3))
                        .append(',').append(Numbers.fixed(v.p99Ratio(), 3))
                        .append(',').append(o.kip().timeoutCount())
                        .append(',').append(o.kip().recovered() ? Numbers.fixed(o.kip().recoveryMs() / 1000.0, 1) : "")
                        .append(',').append(Numbers.fixed(v.recoveryRatio(), 3))
                        .append(',').append(o.controller().elections())
                        .append(',').append(o.controller().failoverElections())
                        .append(',').append(o.controller().runs())
                        .append(',').append(o.controller().maxElectionsInRun())
                        .append(',').append(o.controller().skippedByGate())
                        .append(',').append(o.controller().controllerFailovers())
                        .append(',').append(o.end().invariantChecks())
                        .append(',').append(v.p99Ok())
                        .append(',').append(v.timeoutsOk())
                        .append(',').append(v.recoveryOk())
                        .append(',').append(v.pass() ? "PASS" : "FAIL")
                        .append(',').append(Numbers.fixed(o.classes().protectedRatio(), 3))
                        .append(',').append(Numbers.fixed(o.classes().otherRatio(), 3));
                int worst = SimulationTable.worstBroker(o);
                sb.append(',').append(worst < 0 ? "" : Integer.toString(worst))
                        .append(',').append(worst < 0 ? "" : Numbers.fixed(o.classes().brokerRatio(worst), 3))
                        .append(',').append(Numbers.fixed(o.classes().reentries().lastSeconds(), 1))
                        .append(',').append(Numbers.fixed(o.recoveryVsPhysicalLimit(), 3))
                        .append(',').append(o.classes().gateReleaseMs() < 0 ? ""
                                : Numbers.fixed(o.classes().gateReleaseMs() / 1000.0, 1))
                        .append('\n');
            }
        }
        return sb.toString();
    }

    /** P99 per leader broker and per class, steady and over the window: one row per scenario, policy and broker. */
    public static String brokers(ScenarioResult result) {
        StringBuilder sb = new StringBuilder("scenario,policy,seed,broker,steady_p99_ms,window_p99_ms,p99_ratio\n");
        for (PolicyOutcome o : result.outcomes()) {
            String head = result.scenario().name() + "," + field(o.policy().name()) + "," + result.seed() + ",";
            double[][] b = o.classes().brokerP99Ms();
            for (int i = 0; i < b.length; i++) {
                sb.append(head).append(i).append(',').append(Numbers.fixed(b[i][0], 3)).append(',')
                        .append(Numbers.fixed(b[i][1], 3)).append(',').append(Numbers.fixed(b[i][1] / b[i][0], 3)).append('\n');
            }
            sb.append(head).append("protected,").append(Numbers.fixed(o.classes().steadyP99ProtectedMs(), 3)).append(',')
                    .append(Numbers.fixed(o.classes().windowP99ProtectedMs(), 3)).append(',')
                    .append(Numbers.fixed(o.classes().protectedRatio(), 3)).append('\n');
            sb.append(head).append("other,").append(Numbers.fixed(o.classes().steadyP99OtherMs(), 3)).append(',')
                    .append(Numbers.fixed(o.classes().windowP99OtherMs(), 3)).append(',')
                    .append(Numbers.fixed(o.classes().otherRatio(), 3)).append('\n');
        }
        return sb.toString();
    }

    private static String format(String column, double v) {
        if (column.equals("time_s")) {
            return Numbers.fixed(v, 0);
        }
        if (column.endsWith("_ms") || column.startsWith("util_") || column.equals("requests") || column.equals("timeouts")) {
            return Numbers.fixed(v, 3);
        }
        return Numbers.fixed(v, 0);
    }

    /** A text field as RFC 4180 wants it: quoted when it holds a comma or a quote (a policy named NAME:a=1,b=2). */
    static String field(String text) {
        if (text.indexOf(',') < 0 && text.indexOf('"') < 0) {
            return text;
        }
        return '"' + text.replace("\"", "\"\"") + '"';
    }
}
