package io.leaderpacer.simulator.calibrate;

import io.leaderpacer.report.csv.CsvContent;
import io.leaderpacer.report.loadtest.LoadTestFiles;
import io.leaderpacer.report.loadtest.PartitionRow;
import io.leaderpacer.report.loadtest.RoundKey;
import io.leaderpacer.report.loadtest.RoundRow;

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
 *
 * <p>The rate is also split by how much the broker led while it caught up ({@code preferred_led} of
 * {@code preferred} at the start of each sampling interval): the model charges leading to catch-up, and this is what
 * says how much the first leaderships cost against the later ones.
 */
public final class MeasuredCatchUp {

    /**
     * One round's catch-up.
     *
     * @param policy         the load test's policy name, in today's names
     * @param round          the round number
     * @param behindAtFirstLookMiB bytes behind at the first sample after the restart that has log-dir sizes
     * @param behindAtUnfenceMiB   bytes behind at the first such sample at or after unfencing
     * @param doneSeconds    from unfencing to the first sample with at most 1 % of that left (or 1 MiB), NaN if never
     * @param meanMBps       replica bytes gained per second over that span (MB = 10^6 bytes), NaN if never done
     * @param byLeading      the same rate over the intervals of that span that began with the broker leading none,
     *                       few or many of its preferred partitions (NaN where no interval did)
     */
    public record Round(
            String policy,
            int round,
            double behindAtFirstLookMiB,
            double behindAtUnfenceMiB,
            double doneSeconds,
            double meanMBps,
            RateByLeading byLeading) {}

    /**
     * Catch-up rates (MB/s) while the broker led none of its preferred partitions, fewer than {@link #MANY} of them,
     * or at least that share; each NaN when no sampling interval began in that state or the run has no
     * {@code preferred_led} column.
     */
    public record RateByLeading(double noneMBps, double fewMBps, double manyMBps) {
        /** From this share of its preferred partitions on, a broker leads "many". */
        public static final double MANY = 0.25;
    }

    private MeasuredCatchUp() {}

    /** Every round of the directory that has byte samples after its restart; empty for older runs. */
    public static List<Round> read(Path dir) {
        Map<RoundId, double[]> times = new HashMap<>();
        for (RoundRow r : LoadTestFiles.ROUNDS
                .readIn(dir, List.of("policy", "round", "restarted_at_s", "unfenced_at_s"), "")
                .rows()) {
            times.put(
                    key(r.key()),
                    new double[] {r.timeline().restartedAtS(), r.timeline().unfencedAtS()});
        }
        CsvContent<PartitionRow> partitions = LoadTestFiles.PARTITIONS
                .readIfPresentIn(dir, List.of("policy", "round", "at_s"))
                .orElse(null);
        if (partitions == null || !partitions.has("hosted_bytes") || !partitions.has("bytes_behind")) {
            return List.of();
        }
        boolean leadShares = partitions.has("preferred_led") && partitions.has("preferred");
        Map<RoundId, List<double[]>> samples = new LinkedHashMap<>();
        for (PartitionRow r : partitions.rows()) {
            Long hosted = r.asReplica().bytes();
            Long behind = r.asReplica().bytesBehind();
            if (hosted != null && behind != null) {
                samples.computeIfAbsent(key(r.key()), k -> new ArrayList<>())
                        .add(new double[] {r.atS(), hosted, behind, leadShares ? leadShare(r.asPreferred()) : Double.NaN
                        });
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

    /** preferred_led / preferred of a sample, NaN when it prefers nothing. */
    private static double leadShare(PartitionRow.Preferred p) {
        return p.partitions() > 0 ? (double) p.led() / p.partitions() : Double.NaN;
    }

    /** Which round a row belongs to, in both files. */
    private record RoundId(String policy, int round) {}

    private static RoundId key(RoundKey key) {
        return new RoundId(LoadTestRuns.policy(key), key.round());
    }

    private static Round round(RoundId key, List<double[]> list, double restartedAt, double unfencedAt) {
        int firstLook = -1;
        int atUnfence = -1;
        int done = -1;
        for (int i = 0; i < list.size(); i++) {
            double[] s = list.get(i);
            if (s[0] < restartedAt) {
                continue;
            }
            if (firstLook < 0) {
                firstLook = i;
            }
            if (s[0] >= unfencedAt && atUnfence < 0) {
                atUnfence = i;
            }
            if (atUnfence >= 0 && done < 0 && s[2] <= Math.max(1 << 20, list.get(atUnfence)[2] / 100)) {
                done = i;
            }
        }
        if (firstLook < 0 || atUnfence < 0) {
            return null;
        }
        double mib = 1 << 20;
        double[] from = list.get(atUnfence);
        double[] to = done < 0 ? null : list.get(done);
        double doneSeconds = to == null ? Double.NaN : to[0] - unfencedAt;
        double rate = to == null || to[0] <= from[0] ? Double.NaN : (to[1] - from[1]) / (to[0] - from[0]) / 1e6;
        return new Round(
                key.policy(),
                key.round(),
                list.get(firstLook)[2] / mib,
                from[2] / mib,
                doneSeconds,
                rate,
                byLeading(list, atUnfence, done < 0 ? list.size() - 1 : done));
    }

    /** Bytes gained over seconds elapsed, per leading state at each interval's start, from unfencing until done. */
    private static RateByLeading byLeading(List<double[]> list, int start, int end) {
        double[] bytes = new double[3];
        double[] seconds = new double[3];
        for (int i = start; i < end; i++) {
            double[] a = list.get(i);
            double[] b = list.get(i + 1);
            if (!Double.isFinite(a[3]) || b[0] <= a[0]) {
                continue;
            }
            int state = a[3] <= 0 ? 0 : a[3] < RateByLeading.MANY ? 1 : 2;
            bytes[state] += b[1] - a[1];
            seconds[state] += b[0] - a[0];
        }
        double[] mbps = new double[3];
        for (int s = 0; s < 3; s++) {
            mbps[s] = seconds[s] > 0 ? bytes[s] / seconds[s] / 1e6 : Double.NaN;
        }
        return new RateByLeading(mbps[0], mbps[1], mbps[2]);
    }
}
