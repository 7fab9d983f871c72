package io.leaderpacer.engine.schedule;

/** How a run of a periodic task ended, which decides when the next one starts. */
public enum RunOutcome {
    /** Nothing more to do now: next run after the task's period. */
    DONE,
    /** The run hit its cap and work remains: Kafka reschedules it at once, KIP-1358 throttles it. */
    MORE_WORK,
    /**
     * The run did not hit its cap but a broker is gated: with the re-check extension on, the next run comes after
     * the re-check interval (when shorter than the period); otherwise as {@link #DONE}.
     */
    GATED,
    /** The run threw: retried after {@link PeriodicTask#FAILURE_RETRY_MS}. */
    FAILED
}
