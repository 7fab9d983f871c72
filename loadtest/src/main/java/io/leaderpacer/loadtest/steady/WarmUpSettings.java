package io.leaderpacer.loadtest.steady;

import java.time.Duration;
import java.util.Objects;

/**
 * How long a load test warms up: at least {@code minimum}, then until the cluster is {@linkplain SteadyWindows
 * steady}, and never longer than {@code limit} (the run then goes on and says so).
 *
 * @param minimum always this long, whatever the windows say (JIT, connections and page cache settle)
 * @param limit   the longest warm-up; at least the minimum
 */
public record WarmUpSettings(Duration minimum, Duration limit) {

    public WarmUpSettings {
        Objects.requireNonNull(minimum, "minimum");
        Objects.requireNonNull(limit, "limit");
        if (minimum.isNegative()) {
            throw new IllegalArgumentException("the warm-up's minimum must be >= 0, got " + minimum.toSeconds() + " s");
        }
        if (limit.compareTo(minimum) < 0) {
            throw new IllegalArgumentException("the warm-up's limit (" + limit.toSeconds()
                    + " s) must be at least its minimum (" + minimum.toSeconds() + " s)");
        }
    }
}
