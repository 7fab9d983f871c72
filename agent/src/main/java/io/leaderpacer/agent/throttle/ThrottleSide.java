package io.leaderpacer.agent.throttle;

/**
 * Which side of replication a throttle applies to: what a broker sends to out-of-sync followers as a leader, or
 * what it fetches as an out-of-sync follower. Each side has its rate (on brokers) and its replica list (on topics).
 */
public enum ThrottleSide {

    /** What a leader sends to followers outside the ISR. */
    LEADER("leader.replication.throttled.rate", "leader.replication.throttled.replicas"),
    /** What a follower outside the ISR fetches from its leaders. */
    FOLLOWER("follower.replication.throttled.rate", "follower.replication.throttled.replicas");

    private final String rateKey;
    private final String replicasKey;

    ThrottleSide(String rateKey, String replicasKey) {
        this.rateKey = rateKey;
        this.replicasKey = replicasKey;
    }

    /** The broker configuration of this side's rate, bytes per second. */
    public String rateKey() {
        return rateKey;
    }

    /** The topic configuration of this side's throttled replicas. */
    public String replicasKey() {
        return replicasKey;
    }

    /** "leader" or "follower", for messages. */
    public String word() {
        return this == LEADER ? "leader" : "follower";
    }
}
