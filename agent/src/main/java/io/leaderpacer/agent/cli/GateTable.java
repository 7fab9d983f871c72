package io.leaderpacer.agent.cli;

import java.io.PrintWriter;
import java.util.Locale;

/**
 * The gate table {@code pacer plan} and {@code pacer status} print, one row a broker: the same columns in both, so that
 * an operator reads a plan and a status the same way.
 */
final class GateTable {

    private static final String HEADER = "%6s  %-6s  %7s  %9s  %11s  %7s  %10s  %-14s  %s%n";
    private static final String ROW = "%6d  %-6s  %7d  %9d  %11d  %6.2f%%  %10d  %-14s  %s%n";

    private GateTable() {}

    static void header(PrintWriter out) {
        out.printf(
                Locale.ROOT,
                HEADER,
                "broker",
                "active",
                "leaders",
                "preferred",
                "out-of-sync",
                "ratio",
                "imbalanced",
                "gate",
                "why");
    }

    /**
     * @param outOfSyncPercent the gate's ratio: out-of-sync preferred partitions, in percent of its denominator
     * @param gate             the gate's phase, as the table spells it
     * @param why              the gate's reason
     */
    static void row(
            PrintWriter out,
            int broker,
            boolean active,
            long leaders,
            long preferred,
            long outOfSync,
            double outOfSyncPercent,
            long imbalanced,
            String gate,
            String why) {
        out.printf(
                Locale.ROOT,
                ROW,
                broker,
                active ? "yes" : "no",
                leaders,
                preferred,
                outOfSync,
                outOfSyncPercent,
                imbalanced,
                gate,
                why);
    }
}
