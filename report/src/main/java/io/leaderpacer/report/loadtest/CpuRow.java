package io.leaderpacer.report.loadtest;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonUnwrapped;

/**
 * A line of {@code cpu.csv}: the restarted broker's CPU use, and under a cgroup quota how often the kernel stopped it
 * at its quota (empty otherwise, and in files written before the counters were recorded).
 *
 * @param key              the round
 * @param atS              the end of the interval, seconds since the round started
 * @param cores            CPU use over the interval, in cores
 * @param periods          the quota's periods (100 ms) in the interval in which the broker had work
 * @param throttledPeriods of those, the periods in which it used its whole quota and was stopped until the next
 * @param throttledMs      the time its threads stood stopped in the interval, summed over them ({@code NaN}: unknown)
 */
public record CpuRow(
        @JsonUnwrapped RoundKey key,
        @JsonProperty("at_s") double atS,
        double cores,
        Long periods,
        @JsonProperty("throttled_periods") Long throttledPeriods,
        @JsonProperty("throttled_ms") double throttledMs) {

    /** A line without the quota's counters (no cgroup quota). */
    public CpuRow(RoundKey key, double atS, double cores) {
        this(key, atS, cores, null, null, Double.NaN);
    }
}
