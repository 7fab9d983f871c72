package io.leaderpacer.loadtest.observe;

/**
 * The restarted broker as the controller sees it.
 *
 * <p>Why three states: a broker that is gone from the cluster, one that has registered but is still fenced, and an
 * unfenced one are three different moments of a restart; the window starts at the last.
 */
public enum BrokerStatus {
    /** Not registered (stopped, or its session expired). */
    ABSENT,
    /** Registered, fenced: it cannot lead or be in an ISR yet. */
    FENCED,
    /** Registered and unfenced. */
    ACTIVE
}
