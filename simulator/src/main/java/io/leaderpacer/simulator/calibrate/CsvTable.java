package io.leaderpacer.simulator.calibrate;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One of the load test's CSV files, read by column name so that a load test that adds columns stays readable; every
 * error names the file, and the line where there is one.
 */
final class CsvTable {

    private final Path file;
    private final Map<String, Integer> columns;
    private final List<Row> rows;

    private CsvTable(Path file, Map<String, Integer> columns, List<Row> rows) {
        this.file = file;
        this.columns = columns;
        this.rows = rows;
    }

    /** The file, which must exist and have the given columns; {@code missingHint} follows "no such file". */
    static CsvTable read(Path file, List<String> needed, String missingHint) {
        return readIfPresent(file, needed)
                .orElseThrow(() -> new IllegalArgumentException(file + ": no such file" + missingHint));
    }

    /** The file with the given columns, or empty when there is no such file. */
    static Optional<CsvTable> readIfPresent(Path file, List<String> needed) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new IllegalArgumentException(file + ": cannot be read: " + e.getMessage());
        }
        if (lines.isEmpty()) {
            throw new IllegalArgumentException(file + ": empty");
        }
        List<String> header = split(lines.get(0));
        Map<String, Integer> col = new HashMap<>();
        for (int i = 0; i < header.size(); i++) {
            col.put(header.get(i), i);
        }
        for (String n : needed) {
            if (!col.containsKey(n)) {
                throw new IllegalArgumentException(file + ": no column '" + n + "' in the header");
            }
        }
        List<Row> rows = new ArrayList<>();
        for (int i = 1; i < lines.size(); i++) {
            if (lines.get(i).isBlank()) {
                continue;
            }
            List<String> cells = split(lines.get(i));
            String where = file + " line " + (i + 1);
            if (cells.size() != header.size()) {
                throw new IllegalArgumentException(where + ": " + cells.size() + " cells for " + header.size() + " columns");
            }
            rows.add(new Row(cells, col, where));
        }
        return Optional.of(new CsvTable(file, col, rows));
    }

    Path file() {
        return file;
    }

    boolean has(String column) {
        return columns.containsKey(column);
    }

    List<Row> rows() {
        return rows;
    }

    /** One CSV line as RFC 4180 has it: the load test quotes cells holding commas or quotes, and doubles the quotes. */
    static List<String> split(String line) {
        List<String> cells = new ArrayList<>();
        StringBuilder cell = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '"' && quoted && i + 1 < line.length() && line.charAt(i + 1) == '"') {
                cell.append('"');
                i++;
            } else if (c == '"') {
                quoted = !quoted;
            } else if (c == ',' && !quoted) {
                cells.add(cell.toString());
                cell.setLength(0);
            } else {
                cell.append(c);
            }
        }
        cells.add(cell.toString());
        return cells;
    }

    /** One data line, with where it is for error messages. */
    record Row(List<String> cells, Map<String, Integer> col, String where) {
        String text(String name) {
            return cells.get(col.get(name)).strip();
        }

        /** The cell as a number; NaN when it is empty. */
        double num(String name) {
            String v = text(name);
            if (v.isEmpty()) {
                return Double.NaN;
            }
            try {
                return Double.parseDouble(v);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(where + ": column " + name + " is not a number: '" + v + "'");
            }
        }
    }
}
