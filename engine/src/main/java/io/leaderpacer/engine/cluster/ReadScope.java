package io.leaderpacer.engine.cluster;

import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The topics a re-check must read: those with a replica on a broker that is recovering, and those with a
 * partition whose leader is not its preferred replica, in assignment order or in the effective order of a
 * deprioritized list (KIP-491), where a partition led by its first replica is a candidate if that one is
 * deprioritized.
 *
 * <p>Why these: the engine's decision depends on each broker's preferred partitions (the gate's counts) and on the
 * imbalanced partitions (the candidates). While nothing else changes in the cluster (no broker registers, leaves or
 * changes state, which every read sees in full), a partition outside these topics cannot become a candidate nor
 * change a recovering broker's counts, unless its own leadership or ISR moves without a broker event, which a full
 * read at the check interval catches, as Kafka's own check interval would.
 */
public final class ReadScope {

    private ReadScope() {}

    /**
     * The topics of the state with a replica on one of {@code brokers} or a partition imbalanced in assignment order
     * or in the effective order of the {@code deprioritized} brokers, sorted.
     */
    public static SortedSet<String> topics(ClusterState state, Set<Integer> brokers, Set<Integer> deprioritized) {
        SortedSet<String> topics = new TreeSet<>();
        for (int pos = 0, n = state.positionCount(); pos < n; pos++) {
            PartitionState p = state.partitionAt(pos);
            if (p == null || topics.contains(p.id().topic())) {
                continue;
            }
            if (state.imbalancedAt(pos)
                    || hostsAny(p, brokers)
                    || (p.replicaCount() > 0 && deprioritized.contains(p.replicaAt(0)))) {
                topics.add(p.id().topic());
            }
        }
        return topics;
    }

    private static boolean hostsAny(PartitionState p, Set<Integer> brokers) {
        for (int i = 0, n = p.replicaCount(); i < n; i++) {
            if (brokers.contains(p.replicaAt(i))) {
                return true;
            }
        }
        return false;
    }
}
