package io.leaderpacer.compat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The results of one version's story, check by check: what docs/COMPATIBILITY.md's table is made from.
 *
 * <p>Why a table and not just a failed assertion: the matrix must say, for every version, which checks passed and
 * what differed; a failure stops that version's story (later checks depend on the cluster's state), and the
 * remaining checks are written down as not run rather than left out.
 */
final class CheckTable {

    /** One row: check name, PASS / FAIL / NOT RUN, and what was seen. */
    record Row(String check, String result, String seen) {}

    private final String version;
    private final List<Row> rows = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();

    CheckTable(String version) {
        this.version = version;
    }

    void pass(String check, String seen) {
        rows.add(new Row(check, "PASS", seen));
    }

    void fail(String check, Throwable error) {
        String message = String.valueOf(error.getMessage())
                .lines()
                .map(String::strip)
                .filter(l -> !l.isEmpty())
                .limit(3)
                .reduce((a, b) -> a + " " + b)
                .orElse(error.getClass().getSimpleName());
        rows.add(new Row(check, "FAIL", message.length() > 300 ? message.substring(0, 300) + "..." : message));
    }

    void notRun(String check) {
        rows.add(new Row(check, "NOT RUN", "an earlier check failed"));
    }

    /** A difference seen on this version (not a failure). */
    void note(String difference) {
        notes.add(difference);
    }

    boolean allPassed() {
        return rows.stream().allMatch(r -> r.result().equals("PASS"));
    }

    List<Row> rows() {
        return List.copyOf(rows);
    }

    /** Writes {@code <dir>/kafka-<version>.md}: the rows as a Markdown table, then the differences. */
    Path write(Path dir, String header) {
        StringBuilder b = new StringBuilder("### Kafka ")
                .append(version)
                .append("\n\n")
                .append(header)
                .append("\n\n")
                .append("| check | result | seen |\n|---|---|---|\n");
        for (Row r : rows) {
            b.append("| ")
                    .append(r.check())
                    .append(" | ")
                    .append(r.result())
                    .append(" | ")
                    .append(r.seen().replace("|", "/"))
                    .append(" |\n");
        }
        if (!notes.isEmpty()) {
            b.append("\nDifferences seen:\n");
            notes.forEach(n -> b.append("- ").append(n).append('\n'));
        }
        try {
            Files.createDirectories(dir);
            Path file = dir.resolve("kafka-" + version + ".md");
            Files.writeString(file, b.toString(), StandardCharsets.UTF_8);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
