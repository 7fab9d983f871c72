package io.leaderpacer.simulator.calibrate;

import io.leaderpacer.engine.policy.LegacyPolicyNames;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the {@code rounds.csv} of one or more {@code pacer loadtest} output directories: the per-round figures the
 * calibration fits to ({@link CsvTable}: columns by name), with each round's policy in today's names.
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
        CsvTable table = CsvTable.read(dir.resolve("rounds.csv"), NEEDED,
                " (a pacer loadtest output directory has one)");
        List<MeasuredRound> out = new ArrayList<>();
        for (CsvTable.Row r : table.rows()) {
            double stopped = r.num("stopped_at_s");
            double restarted = r.num("restarted_at_s");
            double unfenced = r.num("unfenced_at_s");
            out.add(new MeasuredRound(dir.toString(), policy(r), (int) r.num("round"),
                    new MeasuredRound.Latency(r.num("steady_p99_ms"), r.num("steady_p99_protected_ms"),
                            r.num("window_p99_ms"), r.num("window_p99_protected_ms"), r.num("window_p99_other_ms"),
                            roles(table, r)),
                    new MeasuredRound.Timeline(restarted - stopped, unfenced - restarted, r.num("recovery_s"),
                            r.num("gate_release_s"), r.num("window_s")),
                    new MeasuredRound.Reentry((int) r.num("preferred"), r.num("reentry_first_s"), r.num("reentry_p50_s"),
                            r.num("reentry_p90_s"), r.num("reentry_last_s"))));
        }
        return out;
    }

    /**
     * The row's policy in today's names: a run recorded before the policies got one registry labels the scaled
     * example {@code wait-for-sync} ({@link LegacyPolicyNames#loadTestLabel}, the one place that maps it).
     */
    static String policy(CsvTable.Row r) {
        return LegacyPolicyNames.loadTestLabel(r.text("policy"));
    }

    /** The role split where the run recorded it (every run since the load test split latencies by role). */
    private static MeasuredRound.Roles roles(CsvTable table, CsvTable.Row r) {
        if (!table.has("window_p99_leader_ms") || !table.has("window_p99_in_sync_follower_ms")
                || !table.has("window_p99_not_in_isr_ms")) {
            return MeasuredRound.Roles.NONE;
        }
        return new MeasuredRound.Roles(r.num("window_p99_leader_ms"), r.num("window_p99_in_sync_follower_ms"),
                r.num("window_p99_not_in_isr_ms"));
    }
}
