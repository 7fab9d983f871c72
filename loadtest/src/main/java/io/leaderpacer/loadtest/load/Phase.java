package io.leaderpacer.loadtest.load;

/**
 * The part of a round a send was made in.
 *
 * <p>Why phases are set by the round and stamped on each send when it is made (not when it completes): a send made in
 * the window after unfencing that takes a minute still belongs to the window, and a send made in the steady phase that
 * completes late does not spoil the window's P99.
 */
public enum Phase {
    /** Thrown away: JIT, connections and page cache settle. */
    WARMUP,
    /** The reference: its P99 is what the window is compared with. */
    STEADY,
    /** From the broker's stop to its unfencing: the backlog is written meanwhile. */
    DOWN,
    /**
     * The window after unfencing: {@code --window} (90 s), or until 30 s after the broker leads again when that is
     * later. Stricter than KIP-1358's ten minutes: a fast recovery fills it with its transients.
     */
    WINDOW,
    /**
     * With {@code --kip-window}: from the end of {@link #WINDOW} to ten minutes after unfencing. KIP-1358's window
     * ("the 10-minute window starting at broker unfencing") is {@link #WINDOW} and this together.
     */
    KIP_TAIL,
    /** After the window, while the round waits for recovery to complete. */
    AFTER
}
