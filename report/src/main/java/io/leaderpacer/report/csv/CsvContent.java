package io.leaderpacer.report.csv;

import java.util.List;

/**
 * A CSV file as read: where it came from, the columns its header has (in its order), and its rows.
 *
 * <p>Why the columns: a file written before a column existed reads that column as empty, and a reader that must
 * tell "no value" from "not recorded" asks {@link #has}.
 *
 * @param source  the file, for messages
 * @param columns the header's column names
 * @param rows    the data lines, in order
 */
public record CsvContent<R>(String source, List<String> columns, List<R> rows) {

    public CsvContent {
        columns = List.copyOf(columns);
        rows = List.copyOf(rows);
    }

    /** Whether the file has the column. */
    public boolean has(String column) {
        return columns.contains(column);
    }
}
