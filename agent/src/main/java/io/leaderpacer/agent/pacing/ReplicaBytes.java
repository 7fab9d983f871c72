package io.leaderpacer.agent.pacing;

import io.leaderpacer.engine.cluster.PartitionState;
import org.apache.kafka.common.TopicPartition;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * What one broker's replicas hold, and by how much it lags the leaders it follows, from the replica sizes that
 * {@code describeLogDirs} reports.
 *
 * <p>Why apart: "behind" is what tells a caught-up broker from one still fetching, for the pacing rule's progress
 * guard and ETA as for the load test's measurements; it is a sum over partitions a real cluster shows only at one
 * moment, so its arithmetic is checked here on hand-made cases.
 *
 * @param hosted bytes of the broker's replicas, -1 when it did not answer
 * @param behind over the partitions it hosts and does not lead, how many bytes their leaders hold beyond it (a
 *               replica it does not have yet counts as empty; a replica ahead of its leader counts 0); -1 when it
 *               did not answer
 */
public record ReplicaBytes(long hosted, long behind) {

    /** The broker did not answer (down, starting, or the call timed out). */
    public static final ReplicaBytes UNKNOWN = new ReplicaBytes(-1, -1);

    /**
     * @param broker     the broker looked at
     * @param sizes      per broker that answered, its replica sizes by partition (summed over its log directories)
     * @param partitions the partitions that count (leaderless ones and those it leads or does not host are skipped)
     */
    public static ReplicaBytes of(
            int broker, Map<Integer, Map<TopicPartition, Long>> sizes, Collection<PartitionState> partitions) {
        Map<TopicPartition, Long> own = sizes.get(broker);
        if (own == null) {
            return UNKNOWN;
        }
        long hosted = own.values().stream().mapToLong(Long::longValue).sum();
        long behind = 0;
        for (PartitionState p : partitions) {
            if (!follows(broker, p)) {
                continue;
            }
            TopicPartition tp = new TopicPartition(p.id().topic(), p.id().partition());
            long leaderBytes = sizes.getOrDefault(p.leader(), Map.of()).getOrDefault(tp, 0L);
            behind += Math.max(0, leaderBytes - own.getOrDefault(tp, 0L));
        }
        return new ReplicaBytes(hosted, behind);
    }

    /**
     * Per partition {@code broker} follows, how many bytes its leader holds beyond it, where both answered and the
     * difference of sizes can say so: a partition whose leader did not answer is left out, not counted as close, and
     * so is one whose replica holds more than its leader. Why the latter: sizes are not offsets. A replica that was
     * away while its leader deleted old segments (retention) or compacted its log still holds what the leader no
     * longer has, and can be far behind in offsets while as large as its leader or larger; only a replica smaller
     * than its leader is known to lack at most the difference.
     */
    public static Map<TopicPartition, Long> behindByPartition(
            int broker, Map<Integer, Map<TopicPartition, Long>> sizes, Collection<PartitionState> partitions) {
        Map<TopicPartition, Long> own = sizes.get(broker);
        Map<TopicPartition, Long> out = new HashMap<>();
        if (own == null) {
            return out;
        }
        for (PartitionState p : partitions) {
            if (!follows(broker, p) || !sizes.containsKey(p.leader())) {
                continue;
            }
            TopicPartition tp = new TopicPartition(p.id().topic(), p.id().partition());
            Long leaderBytes = sizes.get(p.leader()).get(tp);
            long ownBytes = own.getOrDefault(tp, 0L);
            if (leaderBytes != null && ownBytes <= leaderBytes) {
                out.put(tp, leaderBytes - ownBytes);
            }
        }
        return out;
    }

    /** Whether {@code broker} hosts {@code p} and follows a leader of it (not leaderless, not led by itself). */
    private static boolean follows(int broker, PartitionState p) {
        return p.hasLeader() && p.leader() != broker && p.isReplica(broker);
    }
}
