package io.leaderpacer.engine.cluster;

import java.util.Objects;

/**
 * A topic partition, named the way operators read it ({@code orders-7}).
 *
 * @param topic     the topic name, non-empty
 * @param partition the partition index, non-negative
 */
public record PartitionId(String topic, int partition) implements Comparable<PartitionId> {

    public PartitionId {
        Objects.requireNonNull(topic, "topic");
        if (topic.isEmpty()) {
            throw new IllegalArgumentException("topic name must not be empty");
        }
        if (partition < 0) {
            throw new IllegalArgumentException(
                    "partition index must be >= 0, was " + partition + " for topic " + topic);
        }
    }

    @Override
    public int compareTo(PartitionId other) {
        int byTopic = topic.compareTo(other.topic);
        return byTopic != 0 ? byTopic : Integer.compare(partition, other.partition);
    }

    @Override
    public String toString() {
        return topic + "-" + partition;
    }
}
