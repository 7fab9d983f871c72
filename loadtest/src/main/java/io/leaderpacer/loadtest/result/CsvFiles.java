package io.leaderpacer.loadtest.result;

import io.leaderpacer.report.loadtest.LoadTestFiles;
import io.leaderpacer.report.loadtest.PacingRow;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * The load test's raw data as CSV, one file per kind of sample, every round in each (its policy and round number in
 * the first columns), so that a spreadsheet, a notebook or the simulator's calibration can read them.
 *
 * <p>Files: {@code rounds.csv} (one line per round), {@code latency-seconds.csv} (per second and view: count,
 * failures, P50, P99, max), {@code latency-buckets.csv} (the steady and window distributions), {@code partitions.csv}
 * (the restarted broker's partitions over time), {@code cpu.csv} (its CPU use over time), {@code agent-runs.csv}
 * (every agent run: elections, gate), {@code steady-windows.csv} (each round's steady phase in windows of 5 s, per
 * view: the pooled steady reference is their median), {@code pacing.csv} (catch-up pacing's looks at the restarted
 * broker: the rate set, bytes behind, why).
 *
 * <p>Why through {@link LoadTestFiles}: the writer here and the calibration's reader in the simulator share one
 * format per file (columns, order, decimals, quoting), so a column renamed on one side cannot silently empty the
 * other; {@link CsvRows} maps a result to each file's rows.
 */
public final class CsvFiles {

    private CsvFiles() {}

    /**
     * Writes every file into {@code dir}, each whole or not at all. {@code pacing.csv} only when a round paced the
     * catch-up: a run without pacing has nothing to say there, and a header alone would read as data lost.
     */
    public static void write(LoadTestResult result, Path dir) throws IOException {
        LoadTestFiles.ROUNDS.writeIn(dir, CsvRows.rounds(result));
        LoadTestFiles.LATENCY_SECONDS.writeIn(dir, CsvRows.latencySeconds(result));
        LoadTestFiles.LATENCY_BUCKETS.writeIn(dir, CsvRows.latencyBuckets(result));
        LoadTestFiles.PARTITIONS.writeIn(dir, CsvRows.partitions(result));
        LoadTestFiles.CPU.writeIn(dir, CsvRows.cpu(result));
        LoadTestFiles.THREADS.writeIn(dir, CsvRows.threads(result));
        LoadTestFiles.AGENT_RUNS.writeIn(dir, CsvRows.agentRuns(result));
        LoadTestFiles.STEADY_WINDOWS.writeIn(dir, CsvRows.steadyWindows(result));
        List<PacingRow> pacing = CsvRows.pacing(result);
        if (!pacing.isEmpty()) {
            LoadTestFiles.PACING.writeIn(dir, pacing);
        }
    }

    /** {@code rounds.csv}'s text: one line per round, the figures of the round table, machine-readable. */
    static String rounds(LoadTestResult result) {
        return LoadTestFiles.ROUNDS.format().text(CsvRows.rounds(result));
    }
}
