package io.leaderpacer.engine;

import io.leaderpacer.engine.cluster.ClusterSnapshot;
import io.leaderpacer.engine.cluster.PartitionId;
import io.leaderpacer.engine.cluster.PartitionState;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Applies a run's elections to a snapshot, as the controller's partition-change records would. */
public final class LeaderChanges {

    private LeaderChanges() {
    }

    /** The snapshot after the decision's elections: same brokers, same order, new leaders. */
    public static ClusterSnapshot applyTo(ClusterSnapshot cluster, ElectionDecision decision) {
        Map<PartitionId, Integer> newLeaders = new HashMap<>();
        decision.elections().forEach(e -> newLeaders.put(e.partition(), e.newLeader()));
        List<PartitionState> next = new ArrayList<>(cluster.partitions().size());
        for (PartitionState p : cluster.partitions()) {
            Integer leader = newLeaders.get(p.id());
            next.add(leader == null ? p : p.withLeader(leader));
        }
        return ClusterSnapshot.builder().brokers(cluster.brokers().values()).partitions(next).build();
    }
}
