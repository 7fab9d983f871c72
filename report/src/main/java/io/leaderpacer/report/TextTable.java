package io.leaderpacer.report;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * A table of strings as aligned plain text for a terminal, and as Markdown for the docs.
 *
 * <p>Why one renderer: the simulator's and the load test's tables are printed to the same terminals and pasted into
 * the same documents, so they are laid out alike: columns two spaces apart and as wide as their widest cell, a rule of
 * dashes under the header, no padding after the last cell; in Markdown, a right-aligned column is marked
 * {@code ---:}. Which columns there are and what the cells say is the caller's.
 */
public final class TextTable {

    /** How a column's cells line up. */
    public enum Align {
        LEFT,
        RIGHT
    }

    private final List<String> header;
    private final List<List<String>> rows;
    private final List<Align> align;

    private TextTable(List<String> header, List<List<String>> rows, List<Align> align) {
        this.header = header;
        this.rows = rows;
        this.align = align;
    }

    /**
     * A table with every column left-aligned.
     *
     * @throws IllegalArgumentException when a row is not as wide as the header
     */
    public static TextTable of(List<String> header, List<List<String>> rows) {
        return new TextTable(
                List.copyOf(header), checkedRows(header, rows), Collections.nCopies(header.size(), Align.LEFT));
    }

    /**
     * Unmodifiable copies of the rows, each checked to be as wide as the header: the one rule of a table, as text here
     * and in a {@link ChartPage}.
     *
     * @throws IllegalArgumentException when a row is not as wide as the header
     */
    static List<List<String>> checkedRows(List<String> header, List<List<String>> rows) {
        List<List<String>> copy = new ArrayList<>();
        for (List<String> row : rows) {
            if (row.size() != header.size()) {
                throw new IllegalArgumentException("table row " + row + " has " + row.size() + " cells for "
                        + header.size() + " columns " + header);
            }
            copy.add(List.copyOf(row));
        }
        return copy;
    }

    /** The same table with the first column left-aligned and every other one right-aligned, so that numbers line up. */
    public TextTable numbersRight() {
        List<Align> a = new ArrayList<>(Collections.nCopies(header.size(), Align.RIGHT));
        if (!a.isEmpty()) {
            a.set(0, Align.LEFT);
        }
        return new TextTable(header, rows, List.copyOf(a));
    }

    /** Aligned plain text: the header, a rule of dashes, the rows, one line each. */
    public String text() {
        int[] width = new int[header.size()];
        for (int c = 0; c < width.length; c++) {
            width[c] = header.get(c).length();
            for (List<String> row : rows) {
                width[c] = Math.max(width[c], row.get(c).length());
            }
        }
        StringBuilder sb = new StringBuilder();
        line(sb, header, width);
        List<String> rule = new ArrayList<>();
        for (int w : width) {
            rule.add("-".repeat(w));
        }
        sb.append(String.join("  ", rule).stripTrailing()).append('\n');
        for (List<String> row : rows) {
            line(sb, row, width);
        }
        return sb.toString();
    }

    /** A Markdown table. */
    public String markdown() {
        StringBuilder sb =
                new StringBuilder("| ").append(String.join(" | ", header)).append(" |\n|");
        for (Align a : align) {
            sb.append(a == Align.RIGHT ? "---:|" : "---|");
        }
        sb.append('\n');
        for (List<String> row : rows) {
            sb.append("| ").append(String.join(" | ", row)).append(" |\n");
        }
        return sb.toString();
    }

    private void line(StringBuilder sb, List<String> cells, int[] width) {
        List<String> padded = new ArrayList<>();
        for (int c = 0; c < cells.size(); c++) {
            String cell = Objects.requireNonNull(cells.get(c), "cell");
            String pad = " ".repeat(width[c] - cell.length());
            padded.add(align.get(c) == Align.RIGHT ? pad + cell : cell + pad);
        }
        String line = String.join("  ", padded);
        // A left-aligned last column would end in its padding; a right-aligned one ends in its cell.
        sb.append(align.get(align.size() - 1) == Align.LEFT ? line.stripTrailing() : line)
                .append('\n');
    }
}
