package io.leaderpacer.loadtest.result;

import java.util.Arrays;
import java.util.Collection;
import java.util.Locale;
import java.util.OptionalLong;

/**
 * When the restarted broker's preferred partitions re-entered their ISRs, in milliseconds after unfencing.
 *
 * @param partitions preferred partitions
 * @param reentered  of them, those seen back in the ISR before the round ended
 * @param firstMs    the first re-entry ({@code -1} when none)
 * @param p50Ms      the median re-entry
 * @param p90Ms      the 90th percentile
 * @param lastMs     the last re-entry: the physical limit of the recovery, when every partition re-entered
 */
public record Timeline(int partitions, int reentered, long firstMs, long p50Ms, long p90Ms, long lastMs) {

    /** From the re-entry times (ms of the round) and the unfencing time. */
    public static Timeline of(int partitions, Collection<Long> reentryMs, long unfencedAtMs) {
        long[] t = reentryMs.stream()
                .mapToLong(v -> Math.max(0, v - unfencedAtMs))
                .sorted()
                .toArray();
        if (t.length == 0) {
            return new Timeline(partitions, 0, -1, -1, -1, -1);
        }
        return new Timeline(partitions, t.length, t[0], rank(t, 0.5), rank(t, 0.9), t[t.length - 1]);
    }

    private static long rank(long[] sorted, double q) {
        int i = (int) Math.ceil(q * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
    }

    /** The physical limit, when every preferred partition re-entered. */
    public OptionalLong physicalLimitMs() {
        return reentered == partitions && partitions > 0 ? OptionalLong.of(lastMs) : OptionalLong.empty();
    }

    /** "first/p50/p90/last" in seconds, for tables. */
    public String text() {
        if (reentered == 0) {
            return "none";
        }
        return String.join(
                        "/",
                        Arrays.stream(new long[] {firstMs, p50Ms, p90Ms, lastMs})
                                .mapToObj(v -> String.format(Locale.ROOT, "%.1f", v / 1000.0))
                                .toList())
                + (reentered < partitions ? " (" + (partitions - reentered) + " never)" : "");
    }
}
