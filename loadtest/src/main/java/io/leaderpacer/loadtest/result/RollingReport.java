package io.leaderpacer.loadtest.result;

import io.leaderpacer.loadtest.load.LatencyFigures;
import io.leaderpacer.report.AtomicFiles;
import io.leaderpacer.report.TextTable;
import io.leaderpacer.report.loadtest.LoadTestFiles;
import io.leaderpacer.report.loadtest.RollingPacingRow;
import io.leaderpacer.report.loadtest.RollingRow;
import io.leaderpacer.report.loadtest.RollingThreadRow;
import io.leaderpacer.report.loadtest.RoundKey;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.stream.Collectors;

/**
 * A rolling run's table and files: one line per round (the producers' P99 across the whole restart against the steady
 * phase before it, time-outs, and the time until the last broker led again, also as a multiple of the baseline round
 * of the same number), {@code rolling.csv} (every turn), {@code rolling-pacing.csv} and {@code rolling-threads.csv}
 * (what pacing did and each turn's broker's CPU, as a recovery round's {@code pacing.csv} and {@code threads.csv}) and
 * {@code summary.md} (the table as Markdown).
 */
public final class RollingReport {

    static final List<String> HEADER = List.of(
            "policy",
            "round",
            "P99 across ms",
            "steady P99 ms",
            "× steady",
            "time-outs",
            "failed",
            "all lead again s",
            "× baseline",
            "all in sync s",
            "per broker, unfenced → leads again s");

    private RollingReport() {}

    /** The table's rows; {@code baseline} names the policy whose rounds the others' times are divided by. */
    static List<List<String>> rows(List<RollingResult> results, String baseline) {
        List<List<String>> rows = new ArrayList<>();
        for (RollingResult r : results) {
            LatencyFigures all = r.rollingFigures();
            OptionalLong base = results.stream()
                    .filter(b -> b.policy().equals(baseline) && b.round() == r.round())
                    .findFirst()
                    .map(RollingResult::leadsAgainMs)
                    .orElse(OptionalLong.empty());
            OptionalLong own = r.leadsAgainMs();
            rows.add(List.of(
                    r.policy(),
                    Integer.toString(r.round()),
                    String.format(Locale.ROOT, "%.0f", all.p99Ms()),
                    String.format(Locale.ROOT, "%.0f", r.steadyFigures().p99Ms()),
                    String.format(Locale.ROOT, "%.2f", r.p99Ratio()),
                    Long.toString(r.timeouts()),
                    Long.toString(r.failures()),
                    seconds(own),
                    own.isPresent() && base.isPresent()
                            ? String.format(Locale.ROOT, "%.2f", own.getAsLong() / (double) base.getAsLong())
                            : "",
                    seconds(
                            r.legs().isEmpty()
                                    ? OptionalLong.empty()
                                    : r.legs().get(r.legs().size() - 1).inSyncAt()),
                    r.legs().stream()
                            .map(l -> l.broker() + ": " + seconds(l.unfencedToLeadsMs()))
                            .collect(Collectors.joining(", "))));
        }
        return rows;
    }

    /** {@code rolling.csv}'s lines: each turn, then the whole restart ("all"), per round. */
    static List<RollingRow> csvRows(List<RollingResult> results) {
        List<RollingRow> out = new ArrayList<>();
        for (RollingResult r : results) {
            RoundKey key = new RoundKey(r.policy(), r.round());
            double steady = r.steadyFigures().p99Ms();
            for (RollingResult.Leg l : r.legs()) {
                LatencyFigures f = LatencyFigures.of(l.sends());
                out.add(new RollingRow(
                        key,
                        Integer.toString(l.broker()),
                        l.stoppedAt() / 1000.0,
                        l.unfencedAt() / 1000.0,
                        secondsOrNaN(l.leadsAt()),
                        secondsOrNaN(l.inSyncAt()),
                        new RollingRow.Latency(f.count(), f.p99Ms(), steady),
                        l.timeouts(),
                        l.failures()));
            }
            LatencyFigures all = r.rollingFigures();
            out.add(new RollingRow(
                    key,
                    "all",
                    0,
                    Double.NaN,
                    secondsOrNaN(r.leadsAgainMs()),
                    r.legs().isEmpty()
                            ? Double.NaN
                            : secondsOrNaN(r.legs().get(r.legs().size() - 1).inSyncAt()),
                    new RollingRow.Latency(all.count(), all.p99Ms(), steady),
                    r.timeouts(),
                    r.failures()));
        }
        return out;
    }

    /** {@code rolling-pacing.csv}'s lines: catch-up pacing's looks at each turn's broker, per round. */
    static List<RollingPacingRow> pacingRows(List<RollingResult> results) {
        List<RollingPacingRow> out = new ArrayList<>();
        for (RollingResult r : results) {
            RoundKey key = new RoundKey(r.policy(), r.round());
            for (RollingResult.Leg l : r.legs()) {
                l.trace()
                        .pacing()
                        .forEach(p -> out.add(new RollingPacingRow(
                                key,
                                l.broker(),
                                p.atMs() / 1000.0,
                                CsvRows.known(p.rateBytes()),
                                CsvRows.known(p.bytesBehind()),
                                p.reason(),
                                p.problem(),
                                p.changes())));
            }
        }
        return out;
    }

    /** {@code rolling-threads.csv}'s lines: each turn's broker's CPU use by thread group, per round. */
    static List<RollingThreadRow> threadRows(List<RollingResult> results) {
        List<RollingThreadRow> out = new ArrayList<>();
        for (RollingResult r : results) {
            RoundKey key = new RoundKey(r.policy(), r.round());
            for (RollingResult.Leg l : r.legs()) {
                l.trace()
                        .threads()
                        .forEach(t -> out.add(new RollingThreadRow(
                                key, l.broker(), t.atMs() / 1000.0, CsvRows.lower(t.group()), t.cores())));
            }
        }
        return out;
    }

    /** Prints the table. */
    public static void print(List<RollingResult> results, String baseline, PrintWriter out) {
        out.println();
        out.print(TextTable.of(HEADER, rows(results, baseline)).text());
        out.flush();
    }

    /** Writes {@code rolling.csv}, {@code rolling-pacing.csv}, {@code rolling-threads.csv} and {@code summary.md}. */
    public static void write(List<RollingResult> results, String baseline, Path dir, String command)
            throws IOException {
        Files.createDirectories(dir);
        LoadTestFiles.ROLLING.writeIn(dir, csvRows(results));
        LoadTestFiles.ROLLING_PACING.writeIn(dir, pacingRows(results));
        LoadTestFiles.ROLLING_THREADS.writeIn(dir, threadRows(results));
        AtomicFiles.write(
                dir.resolve("summary.md"),
                "Rolling restart: `" + command + "`\n\n"
                        + TextTable.of(HEADER, rows(results, baseline)).markdown() + "\n");
    }

    private static String seconds(OptionalLong ms) {
        return ms.isPresent() ? String.format(Locale.ROOT, "%.1f", ms.getAsLong() / 1000.0) : "not";
    }

    private static double secondsOrNaN(OptionalLong ms) {
        return ms.isPresent() ? ms.getAsLong() / 1000.0 : Double.NaN;
    }
}
