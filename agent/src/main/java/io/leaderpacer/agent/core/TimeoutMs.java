package io.leaderpacer.agent.core;

import java.time.Duration;

/**
 * A timeout as the {@code int} milliseconds Kafka's client options and configs take ({@code timeoutMs},
 * {@code default.api.timeout.ms}, {@code request.timeout.ms}): clamped into 1 ms .. {@link Integer#MAX_VALUE}, so that
 * a long timeout is not wrapped into a negative one and none is zero (which a client would read as "do not wait").
 * The one place that conversion is written.
 */
public final class TimeoutMs {

    private TimeoutMs() {}

    public static int of(Duration timeout) {
        return of(timeout.toMillis());
    }

    public static int of(long ms) {
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, ms));
    }
}
