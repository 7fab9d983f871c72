package io.leaderpacer.simulator.report;

import io.leaderpacer.report.csv.CsvFormat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The CSV formats of {@code pacer simulate}'s output directory, shared by its writer and its readers. */
public final class SimulationFiles {

    /** {@code summary.csv}: one line per scenario, policy and seed run. */
    public static final CsvFormat<SummaryRow> SUMMARY = CsvFormat.of(
            SummaryRow.class,
            "scenario",
            "policy",
            "seed",
            "steady_p99_ms",
            "window_p99_ms",
            "p99_ratio",
            "timeouts",
            "recovery_s",
            "recovery_ratio",
            "elections",
            "failover_elections",
            "runs",
            "max_elections_in_run",
            "skipped_by_gate",
            "controller_failovers",
            "invariant_checks",
            "p99_ok",
            "timeouts_ok",
            "recovery_ok",
            "verdict",
            "protected_p99_ratio",
            "other_p99_ratio",
            "worst_broker",
            "worst_broker_p99_ratio",
            "physical_limit_s",
            "recovery_vs_physical_limit",
            "gate_release_s");

    /** A scenario's {@code -brokers.csv}: P99 per leader broker and per class. */
    public static final CsvFormat<BrokerRow> BROKERS = CsvFormat.of(
            BrokerRow.class, "scenario", "policy", "seed", "broker", "steady_p99_ms", "window_p99_ms", "p99_ratio");

    private SimulationFiles() {}

    /**
     * A scenario's time series ({@code <scenario>.csv}): the key columns, then the series' own (the first is
     * {@code time_s}), one row per policy and time bucket.
     */
    public static CsvFormat<Map<String, String>> timeSeries(List<String> seriesColumns) {
        List<String> columns = new ArrayList<>(List.of("scenario", "policy", "seed"));
        columns.addAll(seriesColumns);
        return CsvFormat.ofColumns(columns);
    }
}
