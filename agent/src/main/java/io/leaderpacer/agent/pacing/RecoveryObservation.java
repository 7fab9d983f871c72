package io.leaderpacer.agent.pacing;

import io.leaderpacer.engine.cluster.PartitionState;
import io.leaderpacer.engine.pacing.BrokerSignals;
import org.apache.kafka.common.TopicPartition;

import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;

/**
 * One look at the cluster for pacing: per broker that hosts replicas, its signals for the engine; the replicas each
 * broker hosts out of their ISR (what a throttle covers), with how far behind each is where that is known; and the
 * brokers that are active now.
 *
 * @param signals   one per broker that hosts replicas, ascending id
 * @param outOfSync per broker, the partitions it hosts without being in their ISR
 * @param behind    per catching-up broker that answered, the bytes its out-of-sync replicas lack, by partition, for
 *                  those whose leader answered too (a replica missing here is not known to be close)
 * @param active    the brokers registered, unfenced and not shutting down
 */
public record RecoveryObservation(
        List<BrokerSignals> signals,
        Map<Integer, List<PartitionState>> outOfSync,
        Map<Integer, Map<TopicPartition, Long>> behind,
        Set<Integer> active) {

    public RecoveryObservation {
        signals = List.copyOf(signals);
        outOfSync = Map.copyOf(outOfSync);
        behind = Map.copyOf(behind);
        active = Set.copyOf(active);
    }

    /** A look with no replica's distance known. */
    public RecoveryObservation(
            List<BrokerSignals> signals, Map<Integer, List<PartitionState>> outOfSync, Set<Integer> active) {
        this(signals, outOfSync, Map.of(), active);
    }

    /** How many bytes {@code broker}'s replica of {@code p} lacks, where known. */
    public OptionalLong behind(int broker, PartitionState p) {
        Long lacks = behind.getOrDefault(broker, Map.of()).get(new TopicPartition(p.id().topic(), p.id().partition()));
        return lacks == null ? OptionalLong.empty() : OptionalLong.of(lacks);
    }

    /** Whether {@code broker}'s replica of {@code p} is known to be fewer than {@code bytes} behind its leader. */
    public boolean knownWithin(int broker, PartitionState p, long bytes) {
        Long lacks = behind.getOrDefault(broker, Map.of()).get(new TopicPartition(p.id().topic(), p.id().partition()));
        return lacks != null && lacks < bytes;
    }
}
