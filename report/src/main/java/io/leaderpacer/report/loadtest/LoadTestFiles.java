package io.leaderpacer.report.loadtest;

import io.leaderpacer.report.csv.CsvFormat;

import java.util.List;

/**
 * The CSV files of a {@code pacer loadtest} output directory, with their columns in order: what the load test
 * writes and the simulator's calibration reads.
 */
public final class LoadTestFiles {

    /** One line per round: the figures of the round table. */
    public static final CsvFile<RoundRow> ROUNDS = new CsvFile<>(
            "rounds.csv",
            CsvFormat.of(
                    RoundRow.class,
                    "policy",
                    "round",
                    "steady_p99_ms",
                    "steady_p99_protected_ms",
                    "window_p99_ms",
                    "window_p99_protected_ms",
                    "window_p99_other_ms",
                    "window_p99_leader_ms",
                    "window_p99_in_sync_follower_ms",
                    "window_p99_not_in_isr_ms",
                    "timeouts",
                    "failed",
                    "stopped_at_s",
                    "restarted_at_s",
                    "unfenced_at_s",
                    "window_s",
                    "ended_at_s",
                    "recovery_s",
                    "gate_release_s",
                    "reentry_first_s",
                    "reentry_p50_s",
                    "reentry_p90_s",
                    "reentry_last_s",
                    "preferred",
                    "reentered",
                    "batches_to_broker",
                    "saturation",
                    "cap_cores",
                    "cap_visible_in_cgroup",
                    "catch_up_busy_cores",
                    "steady_cores",
                    "after_catch_up_cores"));

    /** Per second and view: count, failures, P50, P99, max. */
    public static final CsvFile<LatencySecondRow> LATENCY_SECONDS = new CsvFile<>(
            "latency-seconds.csv",
            CsvFormat.of(
                    LatencySecondRow.class,
                    "policy",
                    "round",
                    "second",
                    "view",
                    "count",
                    "failed",
                    "p50_ms",
                    "p99_ms",
                    "max_ms"));

    /** The steady and window latency distributions. */
    public static final CsvFile<LatencyBucketRow> LATENCY_BUCKETS = new CsvFile<>(
            "latency-buckets.csv",
            CsvFormat.of(LatencyBucketRow.class, "policy", "round", "phase", "view", "up_to_ms", "count"));

    /** The restarted broker's partitions over time. */
    public static final CsvFile<PartitionRow> PARTITIONS = new CsvFile<>(
            "partitions.csv",
            CsvFormat.of(
                    PartitionRow.class,
                    "policy",
                    "round",
                    "at_s",
                    "broker_status",
                    "preferred",
                    "preferred_led",
                    "preferred_in_isr",
                    "hosted",
                    "hosted_in_isr",
                    "hosted_bytes",
                    "bytes_behind",
                    "internal_hosted",
                    "internal_in_isr",
                    "internal_preferred",
                    "internal_preferred_led"));

    /** The restarted broker's CPU use over time. */
    public static final CsvFile<CpuRow> CPU = new CsvFile<>(
            "cpu.csv",
            CsvFormat.of(
                    CpuRow.class, "policy", "round", "at_s", "cores", "periods", "throttled_periods", "throttled_ms"));

    /** The restarted broker's CPU use by thread group, from its registration to a minute after its unfencing. */
    public static final CsvFile<ThreadCpuRow> THREADS =
            new CsvFile<>("threads.csv", CsvFormat.of(ThreadCpuRow.class, "policy", "round", "at_s", "group", "cores"));

    /** Every agent run: elections, gate. */
    public static final CsvFile<AgentRunRow> AGENT_RUNS = new CsvFile<>(
            "agent-runs.csv",
            CsvFormat.of(
                    AgentRunRow.class,
                    "policy",
                    "round",
                    "at_s",
                    "elected",
                    "elected_to_broker",
                    "broker_gated",
                    "failed"));

    /** Each round's steady phase in windows of 5 s, per view. */
    public static final CsvFile<SteadyWindowRow> STEADY_WINDOWS = new CsvFile<>(
            "steady-windows.csv",
            CsvFormat.of(SteadyWindowRow.class, "policy", "round", "window", "view", "count", "p99_ms"));

    /** Catch-up pacing's looks at the restarted broker: the rate set, bytes behind, why, what the look changed. */
    public static final CsvFile<PacingRow> PACING = new CsvFile<>(
            "pacing.csv",
            CsvFormat.of(
                    PacingRow.class,
                    "policy",
                    "round",
                    "at_s",
                    "rate_bytes",
                    "bytes_behind",
                    "reason",
                    "problem",
                    "changes"));

    /**
     * A rolling restart's turns ({@code pacer loadtest --rolling}): not in {@link #ALL}, whose files every recovery
     * run writes; a rolling run writes this one and the two
     * below it.
     */
    public static final CsvFile<RollingRow> ROLLING = new CsvFile<>(
            "rolling.csv",
            CsvFormat.of(
                    RollingRow.class,
                    "policy",
                    "round",
                    "leg",
                    "stopped_at_s",
                    "unfenced_at_s",
                    "leads_again_at_s",
                    "in_sync_at_s",
                    "sends",
                    "p99_ms",
                    "steady_p99_ms",
                    "timeouts",
                    "failed"));

    /** Catch-up pacing's looks at each turn's broker of a rolling restart; not in {@link #ALL}, as {@link #ROLLING}. */
    public static final CsvFile<RollingPacingRow> ROLLING_PACING = new CsvFile<>(
            "rolling-pacing.csv",
            CsvFormat.of(
                    RollingPacingRow.class,
                    "policy",
                    "round",
                    "leg",
                    "at_s",
                    "rate_bytes",
                    "bytes_behind",
                    "reason",
                    "problem",
                    "changes"));

    /** Each turn's broker's CPU use by thread group in a rolling restart; not in {@link #ALL}, as {@link #ROLLING}. */
    public static final CsvFile<RollingThreadRow> ROLLING_THREADS = new CsvFile<>(
            "rolling-threads.csv",
            CsvFormat.of(RollingThreadRow.class, "policy", "round", "leg", "at_s", "group", "cores"));

    /** Every file, in the order above. */
    public static final List<CsvFile<?>> ALL = List.of(
            ROUNDS, LATENCY_SECONDS, LATENCY_BUCKETS, PARTITIONS, CPU, THREADS, AGENT_RUNS, STEADY_WINDOWS, PACING);

    private LoadTestFiles() {}
}
