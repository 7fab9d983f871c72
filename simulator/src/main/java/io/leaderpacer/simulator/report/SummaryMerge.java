package io.leaderpacer.simulator.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The summary CSV of an output directory after one more {@code pacer simulate}: the rows already there, with
 * the rows of the scenarios just run replacing their own earlier rows (same scenario, policy and seed).
 *
 * <p>Why: running one scenario, then another, into the same directory must not silently lose the first one's
 * result. A summary in another format (an older version's columns) is not merged: the caller keeps it aside.
 */
public final class SummaryMerge {

    private SummaryMerge() {
    }

    /** Whether an existing summary has the same columns as a new one, so that the two can be merged. */
    public static boolean compatible(String existing, String fresh) {
        return header(existing).equals(header(fresh));
    }

    /**
     * The merged summary: the header, the existing rows not re-run (in their order), then the new rows.
     *
     * @param existing the summary already in the directory (same columns as {@code fresh})
     * @param fresh    the summary of this run
     */
    public static String merge(String existing, String fresh) {
        Map<String, String> rows = new LinkedHashMap<>();
        for (String row : rows(existing)) {
            rows.put(key(row), row);
        }
        for (String row : rows(fresh)) {
            rows.remove(key(row));
        }
        for (String row : rows(fresh)) {
            rows.put(key(row), row);
        }
        StringBuilder sb = new StringBuilder(header(fresh)).append('\n');
        rows.values().forEach(r -> sb.append(r).append('\n'));
        return sb.toString();
    }

    private static String header(String csv) {
        int end = csv.indexOf('\n');
        return end < 0 ? csv : csv.substring(0, end);
    }

    private static List<String> rows(String csv) {
        List<String> rows = new ArrayList<>(csv.lines().filter(l -> !l.isBlank()).toList());
        if (!rows.isEmpty()) {
            rows.remove(0);
        }
        return rows;
    }

    /** Scenario, policy and seed: the first three columns (a quoted field may hold commas). */
    static String key(String row) {
        int fields = 0;
        boolean quoted = false;
        for (int i = 0; i < row.length(); i++) {
            char c = row.charAt(i);
            if (c == '"') {
                quoted = !quoted;
            } else if (c == ',' && !quoted && ++fields == 3) {
                return row.substring(0, i);
            }
        }
        return row;
    }
}
