package io.leaderpacer.report.loadtest;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonUnwrapped;

/**
 * A line of {@code rolling.csv}: one broker's turn in a rolling restart, or the whole restart ({@code leg} "all").
 * Times are seconds from the rolling restart's first stop, so that a leg's lines read as a timeline; a figure a line
 * does not have (the whole restart's own unfencing) is empty.
 *
 * @param key         the round
 * @param leg         the broker restarted in this turn, or "all"
 * @param stoppedAtS  when the broker was stopped (0 for "all")
 * @param unfencedAtS when the controller unfenced it again
 * @param leadsAtS    when it led 99 % of its preferred partitions again (for "all": the last broker's)
 * @param inSyncAtS   when every replica of every partition was in its ISR again (for "all": the last broker's)
 * @param latency     the sends of the turn (or of the whole restart) against the round's steady phase
 * @param timeouts    sends that timed out ({@code REQUEST_TIMED_OUT})
 * @param failed      failed sends of every kind
 */
public record RollingRow(
        @JsonUnwrapped RoundKey key,
        String leg,
        @JsonProperty("stopped_at_s") double stoppedAtS,
        @JsonProperty("unfenced_at_s") double unfencedAtS,
        @JsonProperty("leads_again_at_s") double leadsAtS,
        @JsonProperty("in_sync_at_s") double inSyncAtS,
        @JsonUnwrapped Latency latency,
        long timeouts,
        long failed) {

    /**
     * @param sends        sends recorded
     * @param p99Ms        their P99
     * @param steadyP99Ms  the P99 of every send of the round's steady phase before the restart (pooled, as KIP-1358's
     *                     reference)
     */
    public record Latency(
            long sends,
            @JsonProperty("p99_ms") double p99Ms,
            @JsonProperty("steady_p99_ms") double steadyP99Ms) {}
}
