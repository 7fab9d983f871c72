package io.leaderpacer.simulator.calibrate;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the {@code rounds.csv} of one or more {@code pacer loadtest} output directories: the per-round figures the
 * calibration fits to. Columns are found by name, so a load test that adds columns stays readable.
 */
public final class LoadTestRuns {

    private static final List<String> NEEDED = List.of("policy", "round", "steady_p99_ms", "steady_p99_protected_ms",
            "window_p99_ms", "window_p99_protected_ms", "window_p99_other_ms", "stopped_at_s", "restarted_at_s",
            "unfenced_at_s", "window_s", "recovery_s", "gate_release_s", "reentry_first_s", "reentry_p50_s",
            "reentry_p90_s", "reentry_last_s", "preferred");

    private LoadTestRuns() {
    }

    /** Every round of every directory; throws {@link IllegalArgumentException} naming the file and what is wrong. */
    public static List<MeasuredRound> read(List<Path> dirs) {
        List<MeasuredRound> out = new ArrayList<>();
        for (Path dir : dirs) {
            out.addAll(read(dir));
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("no rounds in " + dirs);
        }
        return out;
    }

    static List<MeasuredRound> read(Path dir) {
        Path file = dir.resolve("rounds.csv");
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException(file + ": no such file (a pacer loadtest output directory has one)");
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
        for (String n : NEEDED) {
            if (!col.containsKey(n)) {
                throw new IllegalArgumentException(file + ": no column '" + n + "' in the header");
            }
        }
        List<MeasuredRound> out = new ArrayList<>();
        for (int i = 1; i < lines.size(); i++) {
            if (lines.get(i).isBlank()) {
                continue;
            }
            List<String> cells = split(lines.get(i));
            String where = file + " line " + (i + 1);
            if (cells.size() != header.size()) {
                throw new IllegalArgumentException(where + ": " + cells.size() + " cells for " + header.size() + " columns");
            }
            Row r = new Row(cells, col, where);
            double stopped = r.num("stopped_at_s");
            double restarted = r.num("restarted_at_s");
            double unfenced = r.num("unfenced_at_s");
            out.add(new MeasuredRound(dir.toString(), r.text("policy"), (int) r.num("round"), r.num("steady_p99_ms"),
                    r.num("steady_p99_protected_ms"), r.num("window_p99_ms"), r.num("window_p99_protected_ms"),
                    r.num("window_p99_other_ms"), restarted - stopped, unfenced - restarted, r.num("recovery_s"),
                    r.num("gate_release_s"), r.num("reentry_first_s"), r.num("reentry_p50_s"), r.num("reentry_p90_s"),
                    r.num("reentry_last_s"), (int) r.num("preferred"), r.num("window_s")));
        }
        return out;
    }

    /** One CSV line; the load test quotes cells holding commas. */
    static List<String> split(String line) {
        List<String> cells = new ArrayList<>();
        StringBuilder cell = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '"') {
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

    private record Row(List<String> cells, Map<String, Integer> col, String where) {
        String text(String name) {
            return cells.get(col.get(name)).strip();
        }

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
