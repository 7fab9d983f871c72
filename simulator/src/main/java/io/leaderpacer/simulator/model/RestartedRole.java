package io.leaderpacer.simulator.model;

/**
 * The part a restarted broker plays in a partition's write path, as the load test splits its latencies: a slow
 * in-sync follower holds back acks=all as much as a slow leader (measured on a CPU-capped broker), so a figure for
 * "the partitions it leads" alone misses half of what its recovery does to producers. With several restarted
 * brokers in one partition the first role in this order wins.
 */
public enum RestartedRole {
    /** A restarted broker leads the partition: its producers queue on that broker. */
    LEADER,
    /** A restarted broker is in the ISR without leading: acks=all writes wait for its fetches. */
    IN_SYNC_FOLLOWER,
    /** A restarted broker holds a replica outside the ISR (down or catching up): no write waits for it. */
    NOT_IN_ISR,
    /** No restarted broker holds a replica. */
    NONE
}
