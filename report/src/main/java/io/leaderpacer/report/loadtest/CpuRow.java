package io.leaderpacer.report.loadtest;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonUnwrapped;

/**
 * A line of {@code cpu.csv}: the restarted broker's CPU use.
 *
 * @param key   the round
 * @param atS   the end of the interval, seconds since the round started
 * @param cores CPU use over the interval, in cores
 */
public record CpuRow(
        @JsonUnwrapped RoundKey key, @JsonProperty("at_s") double atS, double cores) {}
