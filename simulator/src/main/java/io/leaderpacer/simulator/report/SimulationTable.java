package io.leaderpacer.simulator.report;

import io.leaderpacer.report.TextTable;
import io.leaderpacer.simulator.run.KipAcceptance;
import io.leaderpacer.simulator.run.PolicyOutcome;
import io.leaderpacer.simulator.run.ScenarioResult;

import java.util.ArrayList;
import java.util.List;

/**
 * The per-scenario comparison table (modelled figures): the seed's three figures and PASS/FAIL for every policy,
 * beside the P99 ratio of the protected class (partitions whose preferred leader is a restarted broker) and of the
 * worst broker, and recovery as a multiple of the physical limit (the last preferred ISR re-entry), as rows of text
 * shared by the terminal, the Markdown docs and the HTML report.
 */
public final class SimulationTable {

    /** Column headers, in order. */
    public static final List<String> HEADER = List.of(
            "policy",
            "steady P99 ms",
            "P99 window ms",
            "P99 ratio",
            "protected P99 ratio",
            "worst broker P99 ratio",
            "time-outs",
            "recovery",
            "vs baseline",
            "vs physical limit",
            "elections",
            "runs",
            "P99<=1.5x",
            "no time-outs",
            "recovery<=2x",
            "verdict");

    private SimulationTable() {}

    /** One row per policy. */
    public static List<List<String>> rows(ScenarioResult result) {
        List<List<String>> rows = new ArrayList<>();
        for (PolicyOutcome o : result.outcomes()) {
            KipAcceptance v = result.acceptance(o);
            int worst = worstBroker(o);
            rows.add(List.of(
                    o.policy().name(),
                    Numbers.fixed(o.kip().steadyP99Ms(), 1),
                    Numbers.fixed(o.kip().windowP99Ms(), 1),
                    Numbers.ratio(v.p99Ratio()),
                    Numbers.ratio(o.classes().protectedRatio()),
                    worst < 0 ? "-" : Numbers.ratio(o.classes().brokerRatio(worst)) + " (b" + worst + ")",
                    Long.toString(o.kip().timeoutCount()),
                    Numbers.duration(o.kip().recoveryMs()),
                    Numbers.ratio(v.recoveryRatio()),
                    Numbers.ratio(o.recoveryVsPhysicalLimit()),
                    Long.toString(o.controller().elections()),
                    Long.toString(o.controller().runs()),
                    mark(v.p99Ok()),
                    mark(v.timeoutsOk()),
                    mark(v.recoveryOk()),
                    v.pass() ? "PASS" : "FAIL"));
        }
        return rows;
    }

    /** The table as aligned plain text for a terminal (numbers right-aligned). */
    public static String text(ScenarioResult result) {
        return TextTable.of(HEADER, rows(result)).numbersRight().text();
    }

    /** The table in Markdown, for docs/SIMULATOR.md. */
    public static String markdown(ScenarioResult result) {
        return TextTable.of(HEADER, rows(result)).numbersRight().markdown();
    }

    /** The broker whose window P99 rose most over its steady P99, or -1 when none is known. */
    public static int worstBroker(PolicyOutcome o) {
        int worst = -1;
        double ratio = Double.NEGATIVE_INFINITY;
        for (int b = 0; b < o.classes().brokerP99Ms().length; b++) {
            double r = o.classes().brokerRatio(b);
            if (Double.isFinite(r) && r > ratio) {
                ratio = r;
                worst = b;
            }
        }
        return worst;
    }

    private static String mark(boolean ok) {
        return ok ? "pass" : "FAIL";
    }
}
