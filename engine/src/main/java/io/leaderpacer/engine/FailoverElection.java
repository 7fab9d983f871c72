package io.leaderpacer.engine;

import io.leaderpacer.engine.cluster.ClusterSnapshot;
import io.leaderpacer.engine.cluster.PartitionState;

/**
 * Leader election when a partition's leader is lost (Kafka's replication design, its {@code Election.ONLINE}
 * and {@code Election.UNCLEAN}), over the effective replica order so that deprioritized brokers
 * come last without ever being excluded.
 *
 * <p>The new leader is the first active ISR member; with none, the first active ELR member when
 * ELR is on; then, only if unclean election is enabled for the topic, the first active replica,
 * marked unclean because committed data may be lost; otherwise the partition is leaderless.
 */
public final class FailoverElection {

    private FailoverElection() {}

    /**
     * The outcome of a failover election.
     *
     * @param leader  the new leader, or {@link PartitionState#NO_LEADER}
     * @param unclean the leader was not in the ISR or ELR: data may have been lost
     */
    public record Result(int leader, boolean unclean) {
        public boolean hasLeader() {
            return leader != PartitionState.NO_LEADER;
        }
    }

    public static Result elect(
            PartitionState p,
            ClusterSnapshot cluster,
            EffectiveReplicaOrder order,
            boolean elrEnabled,
            boolean uncleanAllowed) {
        int n = p.replicaCount();
        for (int i = 0; i < n; i++) {
            int r = order.at(p, i);
            if (cluster.isActive(r) && p.isrContains(r)) {
                return new Result(r, false);
            }
        }
        if (elrEnabled) {
            for (int i = 0; i < n; i++) {
                int r = order.at(p, i);
                if (cluster.isActive(r) && p.elrContains(r)) {
                    return new Result(r, false);
                }
            }
        }
        if (uncleanAllowed) {
            for (int i = 0; i < n; i++) {
                int r = order.at(p, i);
                if (cluster.isActive(r)) {
                    return new Result(r, true);
                }
            }
        }
        return new Result(PartitionState.NO_LEADER, false);
    }
}
