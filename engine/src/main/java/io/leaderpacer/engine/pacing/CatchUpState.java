package io.leaderpacer.engine.pacing;

/** Where a broker stands in its recovery, as the agent observed it. */
public enum CatchUpState {
    /** Fenced, shutting down or not registered: it fetches nothing now, but will catch up when it is back. */
    INACTIVE,
    /** Active, with replicas it hosts out of their ISR. */
    CATCHING_UP,
    /** Active, in the ISR of every partition it hosts. */
    IN_SYNC
}
