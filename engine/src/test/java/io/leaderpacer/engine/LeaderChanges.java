package io.leaderpacer.engine;

import io.leaderpacer.engine.cluster.ClusterSnapshot;
import io.leaderpacer.engine.cluster.PartitionId;
import io.leaderpacer.engine.cluster.PartitionState;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Applies a run's elections to a snapshot, as the controller's partition-change records would: the new leader;
 * when it came from the ELR (the ISR was empty), an ISR of just that leader, out of the ELR; and, with ELR on,
 * KIP-966's last known leader: recorded when "no leader" is written, elected uncleanly (an ISR of just it), and
 * cleared once the partition has a leader again.
 */
public final class LeaderChanges {

    private LeaderChanges() {}

    /** The snapshot after the decision's elections: same brokers, same order, new leaders. */
    public static ClusterSnapshot applyTo(ClusterSnapshot cluster, ElectionDecision decision) {
        return applyTo(cluster, decision, false);
    }

    /** As {@link #applyTo(ClusterSnapshot, ElectionDecision)}, with Kafka's ELR feature on or off. */
    public static ClusterSnapshot applyTo(ClusterSnapshot cluster, ElectionDecision decision, boolean elrEnabled) {
        Map<PartitionId, Integer> newLeaders = new HashMap<>();
        decision.elections().forEach(e -> newLeaders.put(e.partition(), e.newLeader()));
        List<PartitionState> next = new ArrayList<>(cluster.partitions().size());
        for (PartitionState p : cluster.partitions()) {
            Integer leader = newLeaders.get(p.id());
            next.add(leader == null ? p : applied(p, leader, elrEnabled));
        }
        return ClusterSnapshot.builder()
                .brokers(cluster.brokers().values())
                .partitions(next)
                .build();
    }

    private static PartitionState applied(PartitionState p, int leader, boolean elrEnabled) {
        int[] none = new int[0];
        if (leader == PartitionState.NO_LEADER) {
            int[] lastKnown = elrEnabled && p.lastKnownElr().length == 0 ? new int[] {p.leader()} : p.lastKnownElr();
            return new PartitionState(
                    p.id(), p.replicas(), p.isr(), p.elr(), leader, p.reassigning(), p.topicDeleting(), lastKnown);
        }
        if (p.isrIsEmpty() && p.elrContains(leader)) {
            int[] elr = Arrays.stream(p.elr()).filter(b -> b != leader).toArray();
            return new PartitionState(
                    p.id(), p.replicas(), new int[] {leader}, elr, leader, p.reassigning(), p.topicDeleting(), none);
        }
        if (!p.isrContains(leader)) {
            // the last known leader, uncleanly: an ISR of just it
            return new PartitionState(
                    p.id(), p.replicas(), new int[] {leader}, none, leader, p.reassigning(), p.topicDeleting(), none);
        }
        return new PartitionState(
                p.id(), p.replicas(), p.isr(), p.elr(), leader, p.reassigning(), p.topicDeleting(), none);
    }
}
