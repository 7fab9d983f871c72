package io.leaderpacer.loadtest.probe;

import java.util.Locale;
import java.util.Objects;

/**
 * One way of throttling a restarted broker's catch-up with Kafka's replication throttles.
 *
 * @param side           which side enforces it: the restarted broker's fetchers, or its leaders
 * @param scope          where the rate is set: the cluster default, or per broker (the restarted broker for the
 *                       follower side; each leader for the leader side)
 * @param lists          the topic's replica list: {@code *}, or {@code partition:broker} entries naming the
 *                       restarted broker (follower side) or the leaders' replicas (leader side)
 * @param when           set before the broker is stopped, or while it is down
 * @param bytesPerSecond the rate
 */
public record ThrottleSetup(Side side, Scope scope, Lists lists, When when, long bytesPerSecond) {

    /** Which side enforces the throttle. */
    public enum Side {
        FOLLOWER,
        LEADER
    }

    /** Where the rate is set. */
    public enum Scope {
        CLUSTER_DEFAULT,
        PER_BROKER
    }

    /** How the topic's replica list names what is throttled. */
    public enum Lists {
        ALL,
        ENTRIES
    }

    /** When the throttle is set. */
    public enum When {
        BROKER_UP,
        BROKER_DOWN
    }

    public ThrottleSetup {
        Objects.requireNonNull(side, "side");
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(lists, "lists");
        Objects.requireNonNull(when, "when");
        if (bytesPerSecond < 1) {
            throw new IllegalArgumentException("a throttle's rate must be at least 1 byte/s, got " + bytesPerSecond);
        }
    }

    /** Kafka's config key for the rate on this side. */
    public String rateKey() {
        return side == Side.FOLLOWER ? "follower.replication.throttled.rate" : "leader.replication.throttled.rate";
    }

    /** Kafka's topic config key for the replica list on this side. */
    public String listKey() {
        return side == Side.FOLLOWER
                ? "follower.replication.throttled.replicas"
                : "leader.replication.throttled.replicas";
    }

    /** e.g. "follower, cluster default 10 MiB/s, * lists, set while down". */
    public String describe() {
        return String.format(
                Locale.ROOT,
                "%s side, %s %.1f MiB/s, %s, set while %s",
                side.name().toLowerCase(Locale.ROOT),
                scope == Scope.CLUSTER_DEFAULT ? "cluster default" : "per broker",
                bytesPerSecond / 1048576.0,
                lists == Lists.ALL ? "* lists" : "partition:broker lists",
                when == When.BROKER_UP ? "the broker is up" : "it is down");
    }
}
