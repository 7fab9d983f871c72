package io.leaderpacer.engine;

/** Where a broker stands with the wait-for-sync gate in one run. */
public enum GatePhase {
    /** Not gated: its preferred partitions may be elected. */
    OPEN,
    /** Gated: over the threshold now, or not yet clear for two consecutive runs. */
    GATED,
    /**
     * Released by the max-wait escape while still over the threshold; stays released until it
     * first passes the gate on its own, so that a straggler cannot make it flap.
     */
    ESCAPED,
    /**
     * Fenced, in controlled shutdown or not registered: it cannot lead, so it has no gating episode (a
     * restart ends one) and is not counted as gated. When it is back and over the threshold, a new
     * episode with a fresh clock starts.
     */
    INACTIVE,
    /** The algorithm is {@code immediate}: no gate applies. */
    NOT_APPLICABLE;

    /** Whether partitions preferring this broker are held back this run. */
    public boolean blocksElections() {
        return this == GATED;
    }
}
