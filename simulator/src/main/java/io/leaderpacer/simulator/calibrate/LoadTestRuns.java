package io.leaderpacer.simulator.calibrate;

import io.leaderpacer.report.csv.CsvContent;
import io.leaderpacer.report.loadtest.LegacyLoadTestLabels;
import io.leaderpacer.report.loadtest.LoadTestFiles;
import io.leaderpacer.report.loadtest.RoundKey;
import io.leaderpacer.report.loadtest.RoundRow;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the {@code rounds.csv} of one or more {@code pacer loadtest} output directories: the per-round figures the
 * calibration fits to ({@link LoadTestFiles#ROUNDS}: columns by name), with each round's policy in today's names.
 */
public final class LoadTestRuns {

    private static final List<String> NEEDED = List.of(
            "policy",
            "round",
            "steady_p99_ms",
            "steady_p99_protected_ms",
            "window_p99_ms",
            "window_p99_protected_ms",
            "window_p99_other_ms",
            "stopped_at_s",
            "restarted_at_s",
            "unfenced_at_s",
            "window_s",
            "recovery_s",
            "gate_release_s",
            "reentry_first_s",
            "reentry_p50_s",
            "reentry_p90_s",
            "reentry_last_s",
            "preferred");

    private LoadTestRuns() {}

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
        CsvContent<RoundRow> table =
                LoadTestFiles.ROUNDS.readIn(dir, NEEDED, " (a pacer loadtest output directory has one)");
        List<MeasuredRound> out = new ArrayList<>();
        for (RoundRow r : table.rows()) {
            RoundRow.Timeline t = r.timeline();
            RoundRow.Latency l = r.latency();
            RoundRow.Reentry e = r.reentry();
            out.add(new MeasuredRound(
                    dir.toString(),
                    policy(r.key()),
                    r.key().round(),
                    new MeasuredRound.Latency(
                            l.steady().allMs(),
                            l.steady().protectedMs(),
                            l.window().allMs(),
                            l.window().protectedMs(),
                            l.window().otherMs(),
                            roles(table, l.window())),
                    new MeasuredRound.Timeline(
                            t.restartedAtS() - t.stoppedAtS(),
                            t.unfencedAtS() - t.restartedAtS(),
                            r.recovery().recoveryS(),
                            r.recovery().gateReleaseS(),
                            t.windowS()),
                    new MeasuredRound.Reentry(e.preferred(), e.firstS(), e.p50S(), e.p90S(), e.lastS()),
                    new MeasuredRound.Cpu(capCores(table, r), busyCores(table, r))));
        }
        return out;
    }

    /**
     * The row's policy in today's names: a run recorded before the policies got one registry labels the scaled
     * example {@code wait-for-sync} ({@link LegacyLoadTestLabels#todaysName}, the one place that maps it).
     */
    static String policy(RoundKey key) {
        return LegacyLoadTestLabels.todaysName(key.policy());
    }

    /** The restarted broker's CPU quota where the run recorded one (every run since the load test capped it), else NaN. */
    private static double capCores(CsvContent<RoundRow> table, RoundRow r) {
        double cap = table.has("cap_cores") ? r.cpu().capCores() : Double.NaN;
        return cap > 0 ? cap : Double.NaN;
    }

    /** The catch-up's average CPU use where the run recorded it, else NaN. */
    private static double busyCores(CsvContent<RoundRow> table, RoundRow r) {
        return table.has("catch_up_busy_cores") ? r.cpu().catchUpBusyCores() : Double.NaN;
    }

    /** The role split where the run recorded it (every run since the load test split latencies by role). */
    private static MeasuredRound.Roles roles(CsvContent<RoundRow> table, RoundRow.WindowP99 w) {
        if (!table.has("window_p99_leader_ms")
                || !table.has("window_p99_in_sync_follower_ms")
                || !table.has("window_p99_not_in_isr_ms")) {
            return MeasuredRound.Roles.NONE;
        }
        return new MeasuredRound.Roles(w.leaderMs(), w.inSyncFollowerMs(), w.notInIsrMs());
    }
}
