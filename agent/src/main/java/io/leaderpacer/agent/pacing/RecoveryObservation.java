package io.leaderpacer.agent.pacing;

import io.leaderpacer.engine.cluster.PartitionState;
import io.leaderpacer.engine.pacing.BrokerSignals;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One look at the cluster for pacing: per broker that hosts replicas, its signals for the engine; the replicas each
 * broker hosts out of their ISR (what a throttle covers); and the brokers that are active now.
 *
 * @param signals   one per broker that hosts replicas, ascending id
 * @param outOfSync per broker, the partitions it hosts without being in their ISR
 * @param active    the brokers registered, unfenced and not shutting down
 */
public record RecoveryObservation(List<BrokerSignals> signals, Map<Integer, List<PartitionState>> outOfSync,
                                  Set<Integer> active) {

    public RecoveryObservation {
        signals = List.copyOf(signals);
        outOfSync = Map.copyOf(outOfSync);
        active = Set.copyOf(active);
    }
}
