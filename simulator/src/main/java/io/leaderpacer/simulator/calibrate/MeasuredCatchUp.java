package io.leaderpacer.simulator.calibrate;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How fast the restarted broker really caught up, from the load test's {@code partitions.csv} ({@code hosted_bytes}
 * and {@code bytes_behind}, sampled every 0.5 s from {@code describeLogDirs}): the calibration's re-entry targets
 * only show catch-up through ISR counts, and reading a rate out of those needs an assumption about how the fetchers
 * share it. Runs made before the load test recorded bytes have no such columns and give no rounds.
 */
public final class MeasuredCatchUp {

    /**
     * One round's catch-up.
     *
     * @param policy         the load test's policy name
     * @param round          the round number
     * @param behindAtFirstLookMiB bytes behind at the first sample after the restart that has log-dir sizes
     * @param behindAtUnfenceMiB   bytes behind at the first such sample at or after unfencing
     * @param doneSeconds    from unfencing to the first sample with at most 1 % of that left (or 1 MiB), NaN if never
     * @param meanMBps       replica bytes gained per second over that span (MB = 10^6 bytes), NaN if never done
     */
    public record Round(String policy, int round, double behindAtFirstLookMiB, double behindAtUnfenceMiB,
                        double doneSeconds, double meanMBps) {
    }

    private MeasuredCatchUp() {
    }

    /** Every round of the directory that has byte samples after its restart; empty for older runs. */
    public static List<Round> read(Path dir) {
        Map<String, double[]> times = roundTimes(dir.resolve("rounds.csv"));
        Path file = dir.resolve("partitions.csv");
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (NoSuchFileException e) {
            return List.of();
        } catch (IOException e) {
            throw new IllegalArgumentException(file + ": cannot be read: " + e.getMessage());
        }
        if (lines.isEmpty()) {
            return List.of();
        }
        Map<String, Integer> col = columns(LoadTestRuns.split(lines.get(0)));
        if (!col.containsKey("hosted_bytes") || !col.containsKey("bytes_behind")) {
            return List.of();
        }
        Map<String, List<double[]>> samples = new LinkedHashMap<>();
        for (int i = 1; i < lines.size(); i++) {
            List<String> c = LoadTestRuns.split(lines.get(i));
            if (c.size() <= Math.max(col.get("hosted_bytes"), col.get("bytes_behind"))) {
                throw new IllegalArgumentException(file + " line " + (i + 1) + ": too few cells");
            }
            String hosted = c.get(col.get("hosted_bytes"));
            String behind = c.get(col.get("bytes_behind"));
            if (hosted.isEmpty() || behind.isEmpty()) {
                continue;
            }
            String key = c.get(col.get("policy")) + "," + c.get(col.get("round"));
            samples.computeIfAbsent(key, k -> new ArrayList<>()).add(new double[] {
                    Double.parseDouble(c.get(col.get("at_s"))), Double.parseDouble(hosted), Double.parseDouble(behind)});
        }
        List<Round> out = new ArrayList<>();
        samples.forEach((key, list) -> {
            double[] t = times.get(key);
            if (t != null) {
                Round r = round(key, list, t[0], t[1]);
                if (r != null) {
                    out.add(r);
                }
            }
        });
        return out;
    }

    private static Round round(String key, List<double[]> list, double restartedAt, double unfencedAt) {
        double[] firstLook = null;
        double[] atUnfence = null;
        double[] done = null;
        for (double[] s : list) {
            if (s[0] < restartedAt) {
                continue;
            }
            if (firstLook == null) {
                firstLook = s;
            }
            if (s[0] >= unfencedAt && atUnfence == null) {
                atUnfence = s;
            }
            if (atUnfence != null && done == null && s[2] <= Math.max(1 << 20, atUnfence[2] / 100)) {
                done = s;
            }
        }
        if (firstLook == null || atUnfence == null) {
            return null;
        }
        String[] pr = key.split(",");
        double mib = 1 << 20;
        double doneSeconds = done == null ? Double.NaN : done[0] - unfencedAt;
        double rate = done == null || done[0] <= atUnfence[0] ? Double.NaN
                : (done[1] - atUnfence[1]) / (done[0] - atUnfence[0]) / 1e6;
        return new Round(pr[0], Integer.parseInt(pr[1]), firstLook[2] / mib, atUnfence[2] / mib, doneSeconds, rate);
    }

    private static Map<String, double[]> roundTimes(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (IOException e) {
            throw new IllegalArgumentException(file + ": cannot be read: " + e.getMessage());
        }
        Map<String, double[]> out = new HashMap<>();
        if (lines.isEmpty()) {
            return out;
        }
        Map<String, Integer> col = columns(LoadTestRuns.split(lines.get(0)));
        for (int i = 1; i < lines.size(); i++) {
            if (lines.get(i).isBlank()) {
                continue;
            }
            List<String> c = LoadTestRuns.split(lines.get(i));
            out.put(c.get(col.get("policy")) + "," + c.get(col.get("round")), new double[] {
                    Double.parseDouble(c.get(col.get("restarted_at_s"))),
                    Double.parseDouble(c.get(col.get("unfenced_at_s")))});
        }
        return out;
    }

    private static Map<String, Integer> columns(List<String> header) {
        Map<String, Integer> col = new HashMap<>();
        for (int i = 0; i < header.size(); i++) {
            col.put(header.get(i), i);
        }
        return col;
    }
}
