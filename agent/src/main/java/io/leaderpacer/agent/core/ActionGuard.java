package io.leaderpacer.agent.core;

/**
 * Asked right before every Admin mutation (an election batch, a reorder reassignment) whether this instance may
 * still act.
 *
 * <p>Why an interface: the classes that mutate the cluster must not know how instances coordinate; a single
 * agent passes {@link #NONE}, a coordinated one passes its
 * {@link io.leaderpacer.agent.coordination.ActiveRole}.
 */
@FunctionalInterface
public interface ActionGuard {

    /** A single instance: always allowed. */
    ActionGuard NONE = action -> {};

    /**
     * Returns normally when the mutation may be sent now; the caller must send it straight away.
     *
     * @param action what is about to be sent, for messages (e.g. "electLeaders of 200 partitions")
     * @throws NotActiveException when this instance is not (or can no longer prove it is) the active one; the
     *                            caller sends nothing and ends its run
     */
    void checkActive(String action);
}
