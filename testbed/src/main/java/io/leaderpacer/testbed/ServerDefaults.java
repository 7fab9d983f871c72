package io.leaderpacer.testbed;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The server properties every node of a small local cluster starts from, in-JVM or as processes.
 *
 * <p>Why these: they were found to work for a small cluster on a small machine (see docs/CLUSTER.md). A restarted
 * broker must be able to register again quickly (a duplicate registration is refused until the old session
 * expires), hence a 3 s broker session with 0.5 s heartbeats. No automatic leader rebalance: the agent under test
 * does that job (a caller may turn it back on). Internal topics replicated as far as the cluster allows, no delay
 * before the first group rebalance, and few threads: the machine is small and several clusters may run on it.
 */
public final class ServerDefaults {

    private ServerDefaults() {}

    /**
     * {@code offsets.topic.num.partitions} of every cluster the project starts (Kafka's default is 50): few internal
     * partitions keep a small test cluster small. A user setting may override it.
     */
    public static final int OFFSETS_TOPIC_PARTITIONS = 5;

    /** The defaults for a cluster of {@code brokers} brokers, as a new mutable map; the caller's settings go on top. */
    public static Map<String, String> smallCluster(int brokers) {
        if (brokers < 1) {
            throw new IllegalArgumentException("brokers must be >= 1, was " + brokers);
        }
        String rf = Integer.toString(Math.min(3, brokers));
        Map<String, String> p = new LinkedHashMap<>();
        p.put("broker.session.timeout.ms", "3000");
        p.put("broker.heartbeat.interval.ms", "500");
        p.put("auto.leader.rebalance.enable", "false");
        p.put("offsets.topic.replication.factor", rf);
        p.put("offsets.topic.num.partitions", Integer.toString(OFFSETS_TOPIC_PARTITIONS));
        p.put("transaction.state.log.replication.factor", rf);
        p.put("transaction.state.log.min.isr", "1");
        p.put("group.initial.rebalance.delay.ms", "0");
        p.put("num.network.threads", "2");
        p.put("num.io.threads", "4");
        p.put("background.threads", "2");
        p.put("log.cleaner.threads", "1");
        p.put("num.recovery.threads.per.data.dir", "1");
        return p;
    }
}
