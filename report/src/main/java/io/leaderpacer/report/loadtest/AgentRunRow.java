package io.leaderpacer.report.loadtest;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonUnwrapped;

/**
 * A line of {@code agent-runs.csv}: one run of the agent.
 *
 * @param key             the round
 * @param atS             seconds since the round started
 * @param elected         elections the run made
 * @param electedToBroker of them, those that gave the restarted broker leadership
 * @param brokerGated     whether the gate held the restarted broker back
 * @param failed          whether the run failed
 */
public record AgentRunRow(
        @JsonUnwrapped RoundKey key,
        @JsonProperty("at_s") double atS,
        int elected,
        @JsonProperty("elected_to_broker") int electedToBroker,
        @JsonProperty("broker_gated") boolean brokerGated,
        boolean failed) {}
