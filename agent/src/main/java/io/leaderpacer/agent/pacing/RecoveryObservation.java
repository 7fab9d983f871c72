package io.leaderpacer.agent.pacing;

import io.leaderpacer.engine.cluster.PartitionState;
import io.leaderpacer.engine.pacing.BrokerSignals;
import org.apache.kafka.common.TopicPartition;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
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
 * @param growth    per broker asked at this look and the previous one, each replica's growth in bytes per second: for
 *                  a leader, what flowed into the partition; for a follower, what it fetched
 */
public record RecoveryObservation(
        List<BrokerSignals> signals,
        Map<Integer, List<PartitionState>> outOfSync,
        Map<Integer, Map<TopicPartition, Long>> behind,
        Set<Integer> active,
        Map<Integer, Map<TopicPartition, Double>> growth) {

    public RecoveryObservation {
        signals = List.copyOf(signals);
        outOfSync = Map.copyOf(outOfSync);
        behind = Map.copyOf(behind);
        active = Set.copyOf(active);
        growth = Map.copyOf(growth);
    }

    /** A look with no growth measured. */
    public RecoveryObservation(
            List<BrokerSignals> signals,
            Map<Integer, List<PartitionState>> outOfSync,
            Map<Integer, Map<TopicPartition, Long>> behind,
            Set<Integer> active) {
        this(signals, outOfSync, behind, active, Map.of());
    }

    /** A look with no replica's distance known. */
    public RecoveryObservation(
            List<BrokerSignals> signals, Map<Integer, List<PartitionState>> outOfSync, Set<Integer> active) {
        this(signals, outOfSync, Map.of(), active);
    }

    /** How fast {@code broker}'s replica of {@code p} grew since the previous look, where measured. */
    public OptionalDouble growth(int broker, PartitionState p) {
        Double g = growth.getOrDefault(broker, Map.of()).get(new TopicPartition(p.id().topic(), p.id().partition()));
        return g == null ? OptionalDouble.empty() : OptionalDouble.of(g);
    }

    /** The signals of {@code broker}, if it hosts replicas. */
    public Optional<BrokerSignals> signals(int broker) {
        return signals.stream().filter(s -> s.broker() == broker).findFirst();
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
