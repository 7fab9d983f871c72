package io.leaderpacer.report.loadtest;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonUnwrapped;

/**
 * A line of {@code latency-buckets.csv}: one bucket of a latency distribution.
 *
 * @param key    the round
 * @param phase  the phase (steady or window), in lower case
 * @param view   the view, in lower case
 * @param upToMs the bucket's upper bound (ms); it holds the sends above the previous bucket's bound
 * @param count  sends in the bucket
 */
public record LatencyBucketRow(
        @JsonUnwrapped RoundKey key,
        String phase,
        String view,
        @JsonProperty("up_to_ms") double upToMs,
        long count) {}
