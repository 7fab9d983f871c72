package io.leaderpacer.engine.cluster;

/**
 * A broker as the controller sees it when deciding elections.
 *
 * <p>Kafka only hands leadership to an <em>acceptable</em> leader: a registered broker that is
 * neither fenced nor in controlled shutdown. The engine needs nothing else about a broker.
 *
 * @param id                   the broker id (non-negative)
 * @param fenced               the broker is fenced (its heartbeat lapsed, or it has not caught up
 *                             with the metadata log since it started)
 * @param inControlledShutdown the broker asked to shut down and is handing its leadership away
 */
public record BrokerState(int id, boolean fenced, boolean inControlledShutdown) {

    public BrokerState {
        if (id < 0) {
            throw new IllegalArgumentException("broker id must be >= 0, was " + id);
        }
    }

    /** A live, unfenced broker that is not shutting down. */
    public static BrokerState active(int id) {
        return new BrokerState(id, false, false);
    }

    /** A fenced broker (down, or not yet caught up with metadata). */
    public static BrokerState fenced(int id) {
        return new BrokerState(id, true, false);
    }

    /** A broker in controlled shutdown. */
    public static BrokerState shuttingDown(int id) {
        return new BrokerState(id, false, true);
    }

    /** Whether Kafka would accept this broker as a partition leader. */
    public boolean isActive() {
        return !fenced && !inControlledShutdown;
    }
}
