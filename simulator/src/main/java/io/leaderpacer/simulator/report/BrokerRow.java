package io.leaderpacer.simulator.report;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonUnwrapped;

/**
 * A line of a scenario's {@code -brokers.csv}: P99 of one leader broker, or of one class of partitions, steady and
 * over the window.
 *
 * @param key         scenario, policy, seed
 * @param broker      the broker's id, or {@code protected} / {@code other} for a class
 * @param steadyP99Ms P99 before the first event (ms)
 * @param windowP99Ms P99 over the recovery window (ms)
 * @param p99Ratio    their ratio
 */
public record BrokerRow(
        @JsonUnwrapped SimulationKey key,
        String broker,
        @JsonProperty("steady_p99_ms") double steadyP99Ms,
        @JsonProperty("window_p99_ms") double windowP99Ms,
        @JsonProperty("p99_ratio") double p99Ratio) {}
