package io.leaderpacer.engine.pacing;

/** Where a broker stands in catch-up pacing. */
public enum PacingPhase {
    /** Throttled: down (the throttle waits for its return) or catching up. */
    PACED,
    /** Paced for the max-wait: left unthrottled until it is back in every ISR. */
    ESCAPED,
    /**
     * Its partitions with writes not throttled yet: it went down less than {@code replica.lag.time.max.ms} ago, and its
     * leaders still count it caught up from before, out of the ISR or not: they hold their high watermark for each of
     * its fetches, so a throttled fetch would hold every {@code acks=all} write to those partitions (KAFKA-15021).
     * The rate applies to its replicas of partitions with no writes only, set while it is down too.
     */
    CAUGHT_UP_GRACE
}
