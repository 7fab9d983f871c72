package io.leaderpacer.loadtest.probe;

import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;

/**
 * What one restart of the probe measured.
 *
 * @param caseName     the case
 * @param phase        "throttled" (under the case's throttle) or "after removal"
 * @param backlogBytes what the broker had to fetch (the leaders' bytes of the topic)
 * @param unfencedAtMs since its start, when the controller unfenced it
 * @param allInIsrAtMs since its start, when it was back in every ISR of the topic (empty: not within the limit)
 * @param samples      the looks, in time order
 * @param inForce      the throttle configs Kafka held during the catch-up, as read back
 * @param error        what failed while setting the throttle, or empty
 */
public record CatchUpResult(String caseName, String phase, long backlogBytes, long unfencedAtMs, OptionalLong allInIsrAtMs,
                            List<CatchUpSample> samples, List<String> inForce, String error) {

    public CatchUpResult {
        samples = List.copyOf(samples);
        inForce = List.copyOf(inForce);
    }

    /** The backlog over the time from the start to the last ISR join, MiB/s ({@code NaN} when it did not finish). */
    public double effectiveMiBps() {
        return allInIsrAtMs.isPresent() ? backlogBytes / 1048576.0 / (allInIsrAtMs.getAsLong() / 1000.0) : Double.NaN;
    }

    /**
     * The fetch rate the looks saw, MiB/s: bytes fetched between the first look that answered and the first that
     * was within 1 % of the backlog, over the time between them ({@code NaN} when fewer than two looks fall there:
     * the broker answers only once it is unfenced, and may have caught up before).
     */
    public double observedMiBps() {
        CatchUpSample first = null;
        CatchUpSample last = null;
        for (CatchUpSample s : samples) {
            if (s.hostedBytes() < 0) {
                continue;
            }
            if (first == null) {
                first = s;
            }
            last = s;
            if (s.hostedBytes() >= backlogBytes * 0.99) {
                break;
            }
        }
        if (first == null || last == first || last.atMs() == first.atMs()) {
            return Double.NaN;
        }
        return (last.hostedBytes() - first.hostedBytes()) / 1048576.0 / ((last.atMs() - first.atMs()) / 1000.0);
    }

    /** The share of the backlog already on the broker at its first answering look. */
    public double fetchedAtFirstLook() {
        return samples.stream().filter(s -> s.hostedBytes() >= 0).findFirst()
                .map(s -> s.hostedBytes() / (double) backlogBytes).orElse(Double.NaN);
    }

    /** One row of the report's table. */
    public List<String> row() {
        return List.of(caseName, phase, String.format(Locale.ROOT, "%.0f", backlogBytes / 1048576.0),
                String.format(Locale.ROOT, "%.1f", unfencedAtMs / 1000.0),
                allInIsrAtMs.isPresent() ? String.format(Locale.ROOT, "%.1f", allInIsrAtMs.getAsLong() / 1000.0) : "not within limit",
                num(effectiveMiBps()), num(observedMiBps()), num(fetchedAtFirstLook() * 100),
                error.isEmpty() ? String.join("; ", inForce) : "ERROR " + error);
    }

    static final List<String> HEADER = List.of("case", "phase", "backlog MiB", "unfenced s", "all in ISR s",
            "effective MiB/s (backlog / time to all in ISR)", "observed MiB/s", "% on broker at first look",
            "throttle configs in force");

    private static String num(double v) {
        return Double.isNaN(v) ? "n/a" : String.format(Locale.ROOT, "%.1f", v);
    }
}
