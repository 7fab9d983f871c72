package io.leaderpacer.loadtest.load;

/**
 * A view of the sends: the whole load, one static class, or one role of the restarted broker.
 *
 * <p>Why views over cells: each send is kept once, in the cell of its class and role; every figure a report shows is a
 * sum over the cells of one view, so the views partition the same sends in two ways and always add up.
 */
public enum View {
    ALL("all sends"),
    PROTECTED("protected (preferred leader = restarted broker)"),
    OTHER("other partitions"),
    LEADER(BrokerRole.LEADER.label()),
    IN_SYNC_FOLLOWER(BrokerRole.IN_SYNC_FOLLOWER.label()),
    NOT_IN_ISR(BrokerRole.NOT_IN_ISR.label());

    private final String label;

    View(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    /** Whether a send of this class, made with the broker in this role, is in the view. */
    public boolean includes(SendClass sendClass, BrokerRole role) {
        return switch (this) {
            case ALL -> true;
            case PROTECTED -> sendClass == SendClass.PROTECTED;
            case OTHER -> sendClass == SendClass.OTHER;
            case LEADER -> role == BrokerRole.LEADER;
            case IN_SYNC_FOLLOWER -> role == BrokerRole.IN_SYNC_FOLLOWER;
            case NOT_IN_ISR -> role == BrokerRole.NOT_IN_ISR;
        };
    }
}
