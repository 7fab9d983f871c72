package io.leaderpacer.simulator.calibrate;

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
        Map<String, double[]> times = new HashMap<>();
        for (CsvTable.Row r : CsvTable.read(dir.resolve("rounds.csv"), List.of("policy", "round", "restarted_at_s",
                "unfenced_at_s"), "").rows()) {
            times.put(key(r), new double[] {r.num("restarted_at_s"), r.num("unfenced_at_s")});
        }
        CsvTable partitions = CsvTable.readIfPresent(dir.resolve("partitions.csv"), List.of("policy", "round", "at_s"))
                .orElse(null);
        if (partitions == null || !partitions.has("hosted_bytes") || !partitions.has("bytes_behind")) {
            return List.of();
        }
        Map<String, List<double[]>> samples = new LinkedHashMap<>();
        for (CsvTable.Row r : partitions.rows()) {
            double hosted = r.num("hosted_bytes");
            double behind = r.num("bytes_behind");
            if (Double.isFinite(hosted) && Double.isFinite(behind)) {
                samples.computeIfAbsent(key(r), k -> new ArrayList<>()).add(new double[] {r.num("at_s"), hosted, behind});
            }
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

    private static String key(CsvTable.Row r) {
        return r.text("policy") + "," + (int) r.num("round");
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
}
