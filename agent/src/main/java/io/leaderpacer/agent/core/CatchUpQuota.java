package io.leaderpacer.agent.core;

/**
 * What catch-up pacing sets for one recovering broker's catch-up, beside the rate it decided.
 *
 * <p>Why both: Kafka counts the bytes of in-sync replicas of a listed partition on the same replication quota as the
 * catch-up (KAFKA-NOTES note 17), so pacing writes more than it decided, by what it measured of them, and the catch-up
 * gets the rate decided. An operator reading a rate in Kafka's configs sees the rate set; {@code pacer status} shows
 * both, and what the catch-up fetched.
 *
 * @param decidedBytes the rate decided, bytes per second
 * @param setBytes     what pacing writes for it: its follower rate and its shares of the leader rates its preferred
 *                     replicas catch up under, each with the in-sync bytes counted on the same quota
 * @param chargedBytes of that, the in-sync bytes per second measured
 */
public record CatchUpQuota(long decidedBytes, long setBytes, long chargedBytes) {}
