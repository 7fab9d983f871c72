package io.leaderpacer.engine.cluster;

import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * A read of some topics only: the brokers as they are now, and every partition of the named topics, in topic then
 * partition order. A topic named but absent from {@code partitions} was not found (deleted since the last read).
 *
 * <p>Why: while a broker recovers, the agent re-checks it every few seconds, and only the topics with a replica on
 * it (and those whose leadership is off its preferred replica) can change the decision. Reading those alone keeps
 * a re-check's cost with what changes, not with the cluster ({@link ReadScope}, {@link SnapshotFollower#followPartial}).
 *
 * @param brokers    every registered broker, as a full read gives them
 * @param topics     the topics read
 * @param partitions their partitions
 */
public record PartialRead(List<BrokerState> brokers, SortedSet<String> topics, List<PartitionState> partitions) {

    public PartialRead {
        brokers = List.copyOf(brokers);
        topics = new TreeSet<>(Objects.requireNonNull(topics, "topics"));
        partitions = List.copyOf(partitions);
        for (PartitionState p : partitions) {
            if (!topics.contains(p.id().topic())) {
                throw new IllegalArgumentException("partition " + p.id() + " is not of a topic read: " + topics);
            }
        }
    }

    /** The read of these topics out of a full snapshot: what a partial read of a cluster in that state returns. */
    public static PartialRead of(ClusterSnapshot snapshot, Set<String> topics) {
        return new PartialRead(
                List.copyOf(snapshot.brokers().values()),
                new TreeSet<>(topics),
                snapshot.partitions().stream()
                        .filter(p -> topics.contains(p.id().topic()))
                        .toList());
    }
}
