package io.leaderpacer.loadtest.result;

import io.leaderpacer.report.AtomicFiles;
import io.leaderpacer.report.TextTable;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Prints a load test's tables and findings and writes its files: the CSV data, {@code report.html} and
 * {@code summary.md} (the tables as Markdown, for docs).
 *
 * <p>Why latency can be left out of the terminal: a run whose restarted broker was not saturated on its own cannot
 * compare latencies fairly, and a table that does invites the wrong reading; such a run prints the mechanism only
 * (gate, batches, recovery), and its files still hold every figure.
 */
public final class Reports {

    /** The round table's columns that show the mechanism, not latency. */
    private static final List<Integer> MECHANISM = List.of(0, 1, 7, 8, 9, 10, 11, 12, 13);

    private Reports() {}

    /** Prints the tables and findings; without saturation, only the mechanism columns. */
    public static void print(LoadTestResult result, PrintWriter out) {
        out.println();
        for (String v : VerdictSentences.sentences(result)) {
            out.println(v);
        }
        out.println();
        if (result.saturated()) {
            out.print(TextTable.of(LoadTestTable.policyHeaderShort(), LoadTestTable.policyRowsShort(result))
                    .text());
            out.println();
            out.print(TextTable.of(LoadTestTable.ROUND_HEADER, LoadTestTable.roundRows(result))
                    .text());
        } else {
            out.print(TextTable.of(
                            MECHANISM.stream()
                                    .map(LoadTestTable.ROUND_HEADER::get)
                                    .toList(),
                            LoadTestTable.roundRows(result).stream()
                                    .map(r -> MECHANISM.stream().map(r::get).toList())
                                    .toList())
                    .text());
        }
        out.println();
        for (String f : Findings.of(result)) {
            out.println("- " + f);
        }
        out.flush();
    }

    /** Writes the CSV files, report.html and summary.md into {@code dir}; returns the report's path. */
    public static Path write(LoadTestResult result, Path dir, String command) throws IOException {
        Files.createDirectories(dir);
        CsvFiles.write(result, dir);
        Path html = dir.resolve("report.html");
        HtmlReport.page(result, command).writeTo(html);
        AtomicFiles.write(
                dir.resolve("summary.md"),
                String.join("\n\n", VerdictSentences.sentences(result)) + "\n\n"
                        + TextTable.of(LoadTestTable.POLICY_HEADER, LoadTestTable.policyRows(result))
                                .markdown() + "\n"
                        + TextTable.of(LoadTestTable.ROUND_HEADER, LoadTestTable.roundRows(result))
                                .markdown() + "\n"
                        + String.join(
                                "\n",
                                Findings.of(result).stream().map(f -> "- " + f).toList()) + "\n");
        return html;
    }
}
