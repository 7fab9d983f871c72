package io.leaderpacer.loadtest.observe;

import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;

import java.util.Collection;
import java.util.Map;

/**
 * What one broker's replicas hold, and by how much it lags the leaders it follows, from the replica sizes that
 * {@code describeLogDirs} reports for every broker.
 *
 * <p>Why apart from the watcher: the catch-up rate the calibration reads is how fast {@code hosted} grows, and
 * {@code behind} is what tells a caught-up broker from one still fetching; both are sums over the partitions that a
 * real cluster only shows at one moment, so the arithmetic is checked here on hand-made cases instead.
 *
 * @param hosted bytes of the broker's replicas, -1 when it did not answer
 * @param behind over the partitions it hosts and does not lead, how many bytes their leaders hold beyond it
 *               (a replica it does not have yet counts as empty); -1 when it did not answer
 */
public record ReplicaBytes(long hosted, long behind) {

    /** The broker did not answer (down, starting, or the call timed out). */
    public static final ReplicaBytes UNKNOWN = new ReplicaBytes(-1, -1);

    /**
     * @param broker the broker looked at
     * @param sizes  per broker that answered, its replica sizes by partition (summed over its log directories)
     * @param topics the topics whose partitions count
     */
    public static ReplicaBytes of(int broker, Map<Integer, Map<TopicPartition, Long>> sizes,
                                  Collection<TopicDescription> topics) {
        Map<TopicPartition, Long> own = sizes.get(broker);
        if (own == null) {
            return UNKNOWN;
        }
        long hosted = own.values().stream().mapToLong(Long::longValue).sum();
        long behind = 0;
        for (TopicDescription topic : topics) {
            for (TopicPartitionInfo p : topic.partitions()) {
                if (p.leader() == null || p.leader().id() == broker
                        || p.replicas().stream().noneMatch(n -> n.id() == broker)) {
                    continue;
                }
                TopicPartition tp = new TopicPartition(topic.name(), p.partition());
                long leaderBytes = sizes.getOrDefault(p.leader().id(), Map.of()).getOrDefault(tp, 0L);
                behind += Math.max(0, leaderBytes - own.getOrDefault(tp, 0L));
            }
        }
        return new ReplicaBytes(hosted, behind);
    }
}
