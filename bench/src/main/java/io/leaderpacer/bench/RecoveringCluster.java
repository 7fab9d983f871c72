package io.leaderpacer.bench;

import io.leaderpacer.engine.cluster.BrokerState;
import io.leaderpacer.engine.cluster.ClusterSnapshot;
import io.leaderpacer.engine.cluster.PartitionState;

/**
 * The shape of a large cluster in the middle of a multi-broker recovery, and the snapshot it
 * generates: what the benchmarks decide over.
 *
 * <p>Every broker is the preferred replica of the same number of partitions (replication factor
 * 3, replicas on consecutive brokers, partitions round-robin over brokers so each broker's
 * partitions are spread through the whole iteration order, as hash order spreads them in Kafka).
 * The first {@code recoveringBrokers()} brokers have just come back: none of their preferred
 * partitions is led by them (their first follower leads). Of those, the first
 * {@code gatedBrokers} still have {@value #GATED_OUT_OF_SYNC_PERCENT} % of their preferred
 * partitions out of the ISR, over a 5 % threshold; the others have
 * {@value #OPEN_OUT_OF_SYNC_PERCENT} %, under it. All brokers are active. The result is
 * deterministic: the same shape always builds the same snapshot.
 *
 * @param brokers       number of brokers, ids {@code 0 .. brokers-1}
 * @param partitions    number of partitions; a multiple of {@code brokers}
 * @param imbalanced    partitions not led by their preferred replica; a multiple of
 *                      {@code partitions / brokers}
 * @param gatedBrokers  how many of the recovering brokers are still far behind
 */
public record RecoveringCluster(int brokers, int partitions, int imbalanced, int gatedBrokers) {

    /** Out-of-sync share of a gated recovering broker's preferred partitions. */
    public static final int GATED_OUT_OF_SYNC_PERCENT = 20;
    /** Out-of-sync share of a recovering broker that is nearly caught up. */
    public static final int OPEN_OUT_OF_SYNC_PERCENT = 2;
    /** Partitions per topic, so that a million partitions make ten thousand topics. */
    public static final int PARTITIONS_PER_TOPIC = 100;

    public RecoveringCluster {
        if (brokers < 3) {
            throw new IllegalArgumentException("need at least 3 brokers for replication factor 3, got " + brokers);
        }
        if (partitions <= 0 || partitions % brokers != 0) {
            throw new IllegalArgumentException(
                    "partitions (" + partitions + ") must be a positive multiple of brokers (" + brokers + ")");
        }
        int perBroker = partitions / brokers;
        if (imbalanced < 0 || imbalanced % perBroker != 0 || imbalanced / perBroker > brokers) {
            throw new IllegalArgumentException("imbalanced (" + imbalanced + ") must be a multiple of the " + perBroker
                    + " partitions each broker prefers, at most " + partitions);
        }
        if (gatedBrokers < 0 || gatedBrokers > imbalanced / perBroker) {
            throw new IllegalArgumentException("gatedBrokers (" + gatedBrokers + ") must be between 0 and the "
                    + imbalanced / perBroker + " recovering brokers");
        }
    }

    /** The benchmark's shape: 1,000 brokers, a fifth of the partitions imbalanced, a quarter of those brokers gated. */
    public static RecoveringCluster ofPartitions(int partitions) {
        int brokers = 1_000;
        int imbalanced = partitions / 5;
        int recovering = imbalanced / (partitions / brokers);
        return new RecoveringCluster(brokers, partitions, imbalanced, recovering / 4);
    }

    /** Partitions each broker is the preferred replica of. */
    public int preferredPerBroker() {
        return partitions / brokers;
    }

    /** Brokers whose preferred partitions are all imbalanced. */
    public int recoveringBrokers() {
        return imbalanced / preferredPerBroker();
    }

    /** How many of a recovering broker's preferred partitions are out of its ISR. */
    public int outOfSyncOf(int broker) {
        if (broker >= recoveringBrokers()) {
            return 0;
        }
        int percent = broker < gatedBrokers ? GATED_OUT_OF_SYNC_PERCENT : OPEN_OUT_OF_SYNC_PERCENT;
        return preferredPerBroker() * percent / 100;
    }

    /** Builds the snapshot (validation included: this is the expensive part, done once per benchmark trial). */
    public ClusterSnapshot build() {
        ClusterSnapshot.Builder b = ClusterSnapshot.builder();
        for (int id = 0; id < brokers; id++) {
            b.broker(BrokerState.active(id));
        }
        int recovering = recoveringBrokers();
        int[] outOfSync = new int[recovering];
        for (int id = 0; id < recovering; id++) {
            outOfSync[id] = outOfSyncOf(id);
        }
        String[] topics = new String[(partitions + PARTITIONS_PER_TOPIC - 1) / PARTITIONS_PER_TOPIC];
        for (int t = 0; t < topics.length; t++) {
            topics[t] = String.format("topic-%05d", t);
        }
        for (int i = 0; i < partitions; i++) {
            int preferred = i % brokers;
            int f1 = (preferred + 1) % brokers;
            int f2 = (preferred + 2) % brokers;
            int[] replicas = {preferred, f1, f2};
            int leader = preferred;
            int[] isr = replicas;
            if (preferred < recovering) {
                leader = f1;
                // The broker's k-th preferred partition: the first outOfSync of them are still behind.
                int k = i / brokers;
                if (k < outOfSync[preferred]) {
                    isr = new int[] {f1, f2};
                }
            }
            b.partition(PartitionState.of(
                    topics[i / PARTITIONS_PER_TOPIC], i % PARTITIONS_PER_TOPIC, replicas, isr, leader));
        }
        return b.build();
    }
}
