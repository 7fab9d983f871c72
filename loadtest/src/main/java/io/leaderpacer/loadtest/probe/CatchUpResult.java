package io.leaderpacer.loadtest.probe;

import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;

/**
 * What one restart of the probe measured.
 *
 * @param caseName the case
 * @param phase    "throttled", "unthrottled" or "after removal ..."
 * @param backlog  what the broker held when it was killed and what it then had to fetch
 * @param times    since its start: when it was unfenced and when it was back in every ISR of the topic
 * @param samples  the looks, in time order
 * @param throttle the throttle configs Kafka held during the catch-up, as read back, or what failed setting them
 */
public record CatchUpResult(
        String caseName, String phase, Backlog backlog, Times times, List<CatchUpSample> samples, Throttle throttle) {

    /**
     * @param heldBytes  the topic's bytes on the broker when it was killed
     * @param fetchBytes the leaders' bytes beyond those: what it had to fetch
     */
    public record Backlog(long heldBytes, long fetchBytes) {}

    /**
     * @param unfencedAtMs since the start, when the controller unfenced it
     * @param allInIsrAtMs since the start, when it was back in every ISR (empty: not within the limit)
     */
    public record Times(long unfencedAtMs, OptionalLong allInIsrAtMs) {}

    /**
     * @param inForce the throttle configs read back before the restart
     * @param error   what failed while setting the throttle, or empty
     */
    public record Throttle(List<String> inForce, String error) {
        public Throttle {
            inForce = List.copyOf(inForce);
        }
    }

    public CatchUpResult {
        samples = List.copyOf(samples);
    }

    /** What it had to fetch over the time from the start to the last ISR join, MiB/s ({@code NaN}: not finished). */
    public double effectiveMiBps() {
        return times.allInIsrAtMs().isPresent()
                ? backlog.fetchBytes() / 1048576.0 / (times.allInIsrAtMs().getAsLong() / 1000.0)
                : Double.NaN;
    }

    /**
     * The fetch rate the looks saw, MiB/s: bytes fetched between the first look that answered and the first that
     * was within 1 % of the backlog, over the time between them ({@code NaN} when fewer than two looks fall there:
     * a starting broker may answer late and may have caught up before).
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
            if (s.hostedBytes() - backlog.heldBytes() >= backlog.fetchBytes() * 0.99) {
                break;
            }
        }
        if (first == null || last == first || last.atMs() == first.atMs()) {
            return Double.NaN;
        }
        return (last.hostedBytes() - first.hostedBytes()) / 1048576.0 / ((last.atMs() - first.atMs()) / 1000.0);
    }

    /** The share of what it had to fetch that it held at its first answering look. */
    public double fetchedAtFirstLook() {
        return samples.stream()
                .filter(s -> s.hostedBytes() >= 0)
                .findFirst()
                .map(s -> (s.hostedBytes() - backlog.heldBytes()) / (double) backlog.fetchBytes())
                .orElse(Double.NaN);
    }

    /** One row of the report's table. */
    public List<String> row() {
        OptionalLong all = times.allInIsrAtMs();
        return List.of(
                caseName,
                phase,
                String.format(Locale.ROOT, "%.0f", backlog.fetchBytes() / 1048576.0),
                String.format(Locale.ROOT, "%.1f", times.unfencedAtMs() / 1000.0),
                all.isPresent() ? String.format(Locale.ROOT, "%.1f", all.getAsLong() / 1000.0) : "not within limit",
                num(effectiveMiBps()),
                num(observedMiBps()),
                num(fetchedAtFirstLook() * 100),
                throttle.error().isEmpty() ? String.join("; ", throttle.inForce()) : "ERROR " + throttle.error());
    }

    static final List<String> HEADER = List.of(
            "case",
            "phase",
            "to fetch MiB",
            "unfenced s",
            "all in ISR s",
            "effective MiB/s (to fetch / time to all in ISR)",
            "observed MiB/s",
            "% fetched at first look",
            "throttle configs in force");

    private static String num(double v) {
        return Double.isNaN(v) ? "n/a" : String.format(Locale.ROOT, "%.1f", v);
    }
}
