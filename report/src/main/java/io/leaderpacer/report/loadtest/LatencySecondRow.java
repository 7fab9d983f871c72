package io.leaderpacer.report.loadtest;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonUnwrapped;

/**
 * A line of {@code latency-seconds.csv}: the sends of one second and one view.
 *
 * @param key     the round
 * @param second  the second since the round started
 * @param view    the view (all, protected, other, a role), in lower case
 * @param count   sends made
 * @param failed  of them, those that failed
 * @param latency their latency
 */
public record LatencySecondRow(
        @JsonUnwrapped RoundKey key,
        long second,
        String view,
        long count,
        long failed,
        @JsonUnwrapped Latency latency) {

    /**
     * Latency (ms) of the second's sends; empty cells when there were none.
     *
     * @param p50Ms the median
     * @param p99Ms the 99th percentile
     * @param maxMs the slowest
     */
    public record Latency(
            @JsonProperty("p50_ms") double p50Ms,
            @JsonProperty("p99_ms") double p99Ms,
            @JsonProperty("max_ms") double maxMs) {}
}
