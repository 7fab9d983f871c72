package io.leaderpacer.cli.demo;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.function.Function;

/**
 * The side-by-side comparison at the end of the demo: the same restart, one column per policy,
 * as a table for the report and as aligned text for the terminal.
 */
public final class RecoveryComparison {

    private final List<RecoverySummary> summaries;

    public RecoveryComparison(List<RecoverySummary> summaries) {
        if (summaries.isEmpty()) {
            throw new IllegalArgumentException("nothing to compare: no recovery was recorded");
        }
        this.summaries = List.copyOf(summaries);
    }

    public List<RecoverySummary> summaries() {
        return summaries;
    }

    /** The column headings: an empty corner, then one per policy. */
    public List<String> header() {
        List<String> h = new ArrayList<>();
        h.add("");
        summaries.forEach(s -> h.add(s.policy()));
        return h;
    }

    /** One row per figure: its label, then one cell per policy. */
    public List<List<String>> rows() {
        double threshold = summaries.get(0).thresholdPercent();
        List<List<String>> rows = new ArrayList<>();
        rows.add(row("first leadership back after restart", s -> seconds(s.firstLeadershipMs())));
        rows.add(row("all preferred leadership back after", s -> seconds(s.regainMs())));
        rows.add(row("most leaders gained in one run", s -> Integer.toString(s.maxGainedPerRun())));
        rows.add(row("runs that returned leadership", s -> Integer.toString(s.runsWithElections())));
        rows.add(row(String.format(Locale.ROOT, "leaders returned while >%s%% out of sync",
                TimelineFormat.percent(threshold)), s -> Integer.toString(s.electionsWhileOverThreshold())));
        rows.add(row("produce p99, restart to full leadership", s -> TimelineFormat.latency(s.windowP99Ms())));
        rows.add(row("worst per-run produce p99 in that window", s -> TimelineFormat.latency(s.worstIntervalP99Ms())));
        return rows;
    }

    /** The table as aligned text lines, header first. */
    public List<String> lines() {
        List<String> out = new ArrayList<>();
        out.add(align(header()));
        for (List<String> row : rows()) {
            out.add(align(row));
        }
        return out;
    }

    private List<String> row(String label, Function<RecoverySummary, String> cell) {
        List<String> row = new ArrayList<>();
        row.add(label);
        summaries.forEach(s -> row.add(cell.apply(s)));
        return row;
    }

    private static String align(List<String> cells) {
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%-42s", cells.get(0)));
        for (int i = 1; i < cells.size(); i++) {
            sb.append(String.format(Locale.ROOT, "  %15s", cells.get(i)));
        }
        return sb.toString().stripTrailing();
    }

    /** Seconds with one decimal, or {@code never} for an empty time. */
    static String seconds(OptionalLong ms) {
        return ms.isPresent() ? String.format(Locale.ROOT, "%.1f s", ms.getAsLong() / 1000.0) : "never";
    }
}
