package io.leaderpacer.report.loadtest;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonUnwrapped;

/**
 * A line of {@code partitions.csv}: one look at the cluster from the restarted broker's point of view.
 *
 * @param key          the round
 * @param atS          seconds since the round started
 * @param brokerStatus the broker's state, in lower case
 * @param asPreferred  the partitions whose preferred replica it is
 * @param asReplica    the partitions it is a replica of
 * @param asInternal   of those, the partitions of internal topics
 *
 * <p>(An unwrapped record's name must not be one of its columns: hence not {@code preferred} and {@code hosted}.)
 */
public record PartitionRow(
        @JsonUnwrapped RoundKey key,
        @JsonProperty("at_s") double atS,
        @JsonProperty("broker_status") String brokerStatus,
        @JsonUnwrapped Preferred asPreferred,
        @JsonUnwrapped Hosted asReplica,
        @JsonUnwrapped Internal asInternal) {

    /**
     * Its preferred partitions (all topics).
     *
     * @param partitions how many
     * @param led        of them, those it leads
     * @param inIsr      of them, those whose ISR holds it
     */
    public record Preferred(
            @JsonProperty("preferred") int partitions,
            @JsonProperty("preferred_led") int led,
            @JsonProperty("preferred_in_isr") int inIsr) {}

    /**
     * The partitions it hosts.
     *
     * @param partitions  how many
     * @param inIsr       of them, those whose ISR holds it
     * @param bytes       bytes of its replicas in its log directories; null (an empty cell) when it did not answer
     * @param bytesBehind over those it does not lead, the bytes their leaders hold beyond its replica; null when
     *                    unknown
     */
    public record Hosted(
            @JsonProperty("hosted") int partitions,
            @JsonProperty("hosted_in_isr") int inIsr,
            @JsonProperty("hosted_bytes") Long bytes,
            @JsonProperty("bytes_behind") Long bytesBehind) {}

    /**
     * The partitions of internal topics it hosts: Kafka's own ({@code __consumer_offsets}, {@code __transaction_state}
     * and the like) and any topic named from {@code _} (the convention for a system's topics, the agent's state topic
     * included). Each null (empty cells) in the files of runs before these were recorded.
     *
     * @param partitions   how many it hosts
     * @param inIsr        of them, those whose ISR holds it
     * @param preferred    those whose preferred replica it is
     * @param preferredLed of those, the ones it leads
     */
    public record Internal(
            @JsonProperty("internal_hosted") Integer partitions,
            @JsonProperty("internal_in_isr") Integer inIsr,
            @JsonProperty("internal_preferred") Integer preferred,
            @JsonProperty("internal_preferred_led") Integer preferredLed) {}
}
