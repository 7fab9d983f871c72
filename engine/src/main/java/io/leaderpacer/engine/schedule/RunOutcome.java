package io.leaderpacer.engine.schedule;

/** How a run of a periodic task ended, which decides when the next one starts. */
public enum RunOutcome {
    /** Nothing more to do now: next run after the task's period. */
    DONE,
    /** The run hit its cap and work remains: Kafka reschedules it at once, the seed throttles it. */
    MORE_WORK,
    /** The run threw: retried after {@link PeriodicTask#FAILURE_RETRY_MS}. */
    FAILED
}
