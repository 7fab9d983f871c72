package io.leaderpacer.report.loadtest;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonUnwrapped;

/**
 * A line of {@code steady-windows.csv}: one window of 5 s of a round's steady phase, for one view (the pooled steady
 * reference is their median).
 *
 * @param key    the round
 * @param window the window's index in the steady phase, from 0
 * @param view   the view, in lower case
 * @param count  sends in the window
 * @param p99Ms  their P99 (ms)
 */
public record SteadyWindowRow(
        @JsonUnwrapped RoundKey key,
        int window,
        String view,
        long count,
        @JsonProperty("p99_ms") double p99Ms) {}
