package io.leaderpacer.simulator.model;

/**
 * What an acks=all write waits for besides its leader and followers' queues, when one of its in-sync followers also
 * catches up on other partitions ({@link FetchSharing}): nothing, the catch-up response in flight on its fetcher, or
 * that response and a stop of the follower's CPU quota at a period's end ({@link QuotaPeriod}).
 */
public enum CaughtWait {
    /** Not caught behind a catch-up response. */
    NONE,
    /** Caught behind a catch-up response that ran without a stop. */
    RESPONSE,
    /** Caught behind a catch-up response the kernel stopped at its quota's period end. */
    STOPPED
}
