package io.leaderpacer.report.loadtest;

import io.leaderpacer.report.csv.CsvContent;
import io.leaderpacer.report.csv.CsvFormat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * One file of a load test's output directory: its name there and its format.
 *
 * @param name   the file's name in the directory
 * @param format its columns and row record
 */
public record CsvFile<R>(String name, CsvFormat<R> format) {

    /** The file in {@code dir}. */
    public Path in(Path dir) {
        return dir.resolve(name);
    }

    /** Writes the rows as this file of {@code dir}, whole or not at all. */
    public void writeIn(Path dir, List<R> rows) throws IOException {
        format.write(in(dir), rows);
    }

    /** This file of {@code dir}, which must exist and have the {@code needed} columns. */
    public CsvContent<R> readIn(Path dir, List<String> needed, String missingHint) {
        return format.read(in(dir), needed, missingHint);
    }

    /** This file of {@code dir} with the {@code needed} columns, or empty when the directory has none. */
    public Optional<CsvContent<R>> readIfPresentIn(Path dir, List<String> needed) {
        return format.readIfPresent(in(dir), needed);
    }
}
