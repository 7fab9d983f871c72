package io.leaderpacer.engine.pacing;

/** Where a broker stands in catch-up pacing. */
public enum PacingPhase {
    /** Throttled: down (the throttle waits for its return) or catching up. */
    PACED,
    /** Paced for the max-wait: left unthrottled until it is back in every ISR. */
    ESCAPED
}
