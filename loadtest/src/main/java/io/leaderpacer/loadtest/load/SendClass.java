package io.leaderpacer.loadtest.load;

/**
 * The static class of a send: whether its partition's preferred leader is the restarted broker.
 *
 * <p>Why static: these are the producers the gate is meant to protect, whoever leads at the moment; the class does
 * not change during a run, so its P99 is comparable between policies.
 */
public enum SendClass {
    /** Preferred leader = the restarted broker: leadership comes back to it, early or late. */
    PROTECTED("protected"),
    /** Every other partition. */
    OTHER("other");

    private final String label;

    SendClass(String label) {
        this.label = label;
    }

    /** How reports name the class. */
    public String label() {
        return label;
    }
}
