package io.leaderpacer.agent.core;

/**
 * What became of one election the engine decided, as Kafka reported it.
 *
 * <p>Why an enum rather than a failure: most of these are normal on a live cluster (the leader moved on its own,
 * the preferred replica fell out of the ISR between read and election, the topic was deleted). The run records
 * each one and carries on; the next run reads the cluster again and decides afresh.
 */
public enum ElectionOutcome {
    /** Kafka moved leadership to the preferred replica. */
    ELECTED,
    /** The preferred replica already led the partition (ELECTION_NOT_NEEDED). */
    NOT_NEEDED,
    /** The preferred replica could not lead: not in the ISR, or not alive (PREFERRED_LEADER_NOT_AVAILABLE). */
    PREFERRED_NOT_AVAILABLE,
    /** The topic or partition no longer exists, e.g. deleted mid-run (UNKNOWN_TOPIC_OR_PARTITION). */
    UNKNOWN_PARTITION,
    /** Kafka did not answer in time; the partition is retried next run if still imbalanced. */
    TIMED_OUT,
    /**
     * Not sent: the engine's choice was not the partition's first replica as Kafka stores it, and a preferred
     * election can only elect that one (for example a deprioritized list without a reorder). Sending it would
     * elect the wrong broker.
     */
    NOT_SENT_NOT_FIRST_REPLICA,
    /** Any other error Kafka returned (the detail says which). */
    FAILED;

    /** Whether leadership is now where the engine wanted it. */
    public boolean leaderIsPreferred() {
        return this == ELECTED || this == NOT_NEEDED;
    }
}
