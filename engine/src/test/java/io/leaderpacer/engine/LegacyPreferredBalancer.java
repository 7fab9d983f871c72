package io.leaderpacer.engine;

import io.leaderpacer.engine.cluster.ClusterSnapshot;
import io.leaderpacer.engine.cluster.PartitionState;

import java.util.ArrayList;
import java.util.List;

/**
 * A straightforward re-statement of Kafka's own loop, written independently of the engine, as the
 * reference {@code immediate} must match: walk the imbalanced partitions in iteration order, skip
 * those of a deleted topic (Kafka no longer has them), apply {@code Election.PREFERRED}, and stop once
 * {@code records.size() >= maxElectionsPerImbalance}. The return value's "more work" is Kafka's
 * {@code records.size() >= maxElectionsPerImbalance}.
 *
 * <p>It knows nothing of the deprioritized list: Kafka has none, and with an empty list the engine
 * must make exactly these decisions.
 */
final class LegacyPreferredBalancer {

    /** The records the loop would write, and whether it reported more work. */
    record Outcome(List<Election> elections, boolean moreWork) {
    }

    private LegacyPreferredBalancer() {
    }

    static Outcome run(ClusterSnapshot cluster, int maxElectionsPerImbalance) {
        List<Election> records = new ArrayList<>();
        for (PartitionState p : cluster.partitions()) {
            if (records.size() >= maxElectionsPerImbalance) {
                break;
            }
            int[] replicas = p.replicas();
            int preferred = replicas[0];
            if (p.leader() == preferred || p.topicDeleting()) {
                continue;
            }
            int newLeader;
            if (valid(cluster, p, preferred)) {
                newLeader = preferred;
            } else if (p.leader() != PartitionState.NO_LEADER && valid(cluster, p, p.leader())) {
                newLeader = p.leader();
            } else {
                newLeader = PartitionState.NO_LEADER;
                for (int i = 1; i < replicas.length && newLeader == PartitionState.NO_LEADER; i++) {
                    if (valid(cluster, p, replicas[i])) {
                        newLeader = replicas[i];
                    }
                }
            }
            // A leader that stays writes no record; "no leader" for a partition that had one is a record.
            if (newLeader != p.leader()) {
                records.add(new Election(p.id(), p.leader(), newLeader, preferred));
            }
        }
        return new Outcome(records, records.size() >= maxElectionsPerImbalance);
    }

    private static boolean valid(ClusterSnapshot cluster, PartitionState p, int replica) {
        boolean acceptable = cluster.brokers().containsKey(replica)
                && !cluster.brokers().get(replica).fenced()
                && !cluster.brokers().get(replica).inControlledShutdown();
        boolean eligible = contains(p.isr(), replica) || (p.isr().length == 0 && contains(p.elr(), replica));
        return acceptable && eligible;
    }

    private static boolean contains(int[] array, int value) {
        for (int v : array) {
            if (v == value) {
                return true;
            }
        }
        return false;
    }
}
