package io.leaderpacer.simulator.report;

import io.leaderpacer.report.csv.CsvContent;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The summary CSV of an output directory after one more {@code pacer simulate}: the rows already there, with
 * the rows of the scenarios just run replacing their own earlier rows (same scenario, policy and seed).
 *
 * <p>Why: running one scenario, then another, into the same directory must not silently lose the first one's
 * result. A summary in another format (an older version's columns, or rows this version cannot read) is not
 * merged: the caller keeps it aside.
 */
public final class SummaryMerge {

    private SummaryMerge() {}

    /** The rows of an existing summary, when it has this version's columns and every row reads; else empty. */
    public static Optional<List<SummaryRow>> readIfCompatible(String source, String existing) {
        try {
            CsvContent<SummaryRow> read = SimulationFiles.SUMMARY.parse(source, existing, List.of());
            return read.columns().equals(SimulationFiles.SUMMARY.columns())
                    ? Optional.of(read.rows())
                    : Optional.empty();
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /**
     * The merged summary: the existing rows not re-run (in their order), then the new rows.
     *
     * @param existing the rows already in the directory
     * @param fresh    the rows of this run
     */
    public static List<SummaryRow> merge(List<SummaryRow> existing, List<SummaryRow> fresh) {
        Map<SimulationKey, SummaryRow> rows = new LinkedHashMap<>();
        for (SummaryRow row : existing) {
            rows.put(row.key(), row);
        }
        for (SummaryRow row : fresh) {
            rows.remove(row.key());
        }
        for (SummaryRow row : fresh) {
            rows.put(row.key(), row);
        }
        return List.copyOf(rows.values());
    }
}
