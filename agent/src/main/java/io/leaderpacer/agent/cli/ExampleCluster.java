package io.leaderpacer.agent.cli;

import io.leaderpacer.engine.cluster.BrokerState;
import io.leaderpacer.engine.cluster.ClusterSnapshot;
import io.leaderpacer.engine.cluster.PartitionState;
import io.leaderpacer.engine.config.ConfigKey;
import io.leaderpacer.engine.config.PacerConfig;

import java.util.Map;

/**
 * A small built-in cluster for {@code pacer plan} without {@code --config}: three brokers, 30 partitions of one
 * topic, replication factor 3, just after broker 2 restarted.
 *
 * <p>Why: so that {@code pacer plan} shows what a plan looks like with nothing to connect to. Broker 2 prefers 10
 * partitions; 6 of them are still outside its ISR (60%, over the 10% threshold), so it is gated. Broker 1 has 3
 * partitions led by broker 0 (a past failover) and is fully in sync, so it gets elections. Broker 0 is balanced.
 */
final class ExampleCluster {

    static final String TOPIC = "orders";
    static final int PARTITIONS = 30;

    private ExampleCluster() {}

    /** The policy the example is planned with. */
    static PacerConfig policy() {
        return PacerConfig.fromMap(Map.of(
                ConfigKey.ALGORITHM.key(), "wait-for-sync",
                ConfigKey.THRESHOLD_PERCENT.key(), "10",
                ConfigKey.MAX_PER_RUN.key(), "5",
                ConfigKey.THROTTLE_INTERVAL_MS.key(), "2000",
                ConfigKey.CHECK_INTERVAL_SECONDS.key(), "30"));
    }

    static ClusterSnapshot snapshot() {
        ClusterSnapshot.Builder b = ClusterSnapshot.builder()
                .broker(BrokerState.active(0))
                .broker(BrokerState.active(1))
                .broker(BrokerState.active(2));
        int brokerTwoSeen = 0;
        int brokerOneSeen = 0;
        for (int p = 0; p < PARTITIONS; p++) {
            int first = p % 3;
            int[] replicas = {first, (first + 1) % 3, (first + 2) % 3};
            int leader = first;
            int[] isr = replicas;
            if (first == 2) {
                // Broker 2 just restarted: leadership moved to its next replica; 6 of 10 still catching up.
                leader = replicas[1];
                isr = brokerTwoSeen++ < 6 ? new int[] {replicas[1], replicas[2]} : replicas;
            } else if (first == 1 && brokerOneSeen++ < 3) {
                leader = replicas[2];
            }
            b.partition(PartitionState.of(TOPIC, p, replicas, isr, leader));
        }
        return b.build();
    }
}
