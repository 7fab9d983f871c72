package io.leaderpacer.loadtest.load;

/**
 * The restarted broker's role in a partition at the moment of a send, as last observed.
 *
 * <p>Why: a restarted broker slows {@code acks=all} sends both as a leader and as an in-sync follower (a produce waits
 * for every ISR member to fetch it). Only the first is what the gate changes; keeping the roles apart shows how much
 * of a spike is which.
 */
public enum BrokerRole {
    /** The restarted broker leads the partition. */
    LEADER("restarted broker leads"),
    /** Another broker leads and the restarted broker is an in-sync follower. */
    IN_SYNC_FOLLOWER("restarted broker in-sync follower"),
    /** The restarted broker is out of the ISR, down, or not a replica: the send does not wait for it. */
    NOT_IN_ISR("restarted broker not in ISR");

    private final String label;

    BrokerRole(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }
}
