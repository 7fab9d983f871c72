package io.leaderpacer.engine;

import io.leaderpacer.engine.cluster.ClusterView;
import io.leaderpacer.engine.cluster.PartitionState;

/**
 * Kafka's {@code Election.PREFERRED} rule ({@code PartitionChangeBuilder.electPreferredLeader}),
 * over the effective replica order.
 *
 * <p>Elect the preferred replica if it is a valid leader: in the ISR (or in the ELR when the ISR
 * is empty) and active. Otherwise keep the current leader if it is valid: no change, which does
 * not count against the cap, and the partition is retried next run. Only if the current leader is
 * not valid either does the rule take the first valid replica in order, as a failover would. If
 * no replica is valid, Kafka's builder writes "no leader" ({@link PartitionState#NO_LEADER}) when the
 * partition still names a (now invalid) leader: that is a record, so it counts against the cap, and
 * the rule returns it like any other target. A partition that already has no leader is left as it is.
 *
 * <p>Before "no leader", Kafka (with ELR on) tries the partition's last known leader: with an empty ISR and an
 * empty ELR, a single last known leader that is active is elected, uncleanly (KIP-966's balanced recovery; Kafka
 * records that leader when it writes "no leader"). The snapshot carries it in {@link PartitionState#lastKnownElr()}.
 */
public final class PreferredElection {

    /** Returned when the rule changes nothing. */
    public static final int NO_CHANGE = Integer.MIN_VALUE;

    private PreferredElection() {}

    /**
     * The leader the rule picks for a partition ({@link PartitionState#NO_LEADER} for "no leader"), or
     * {@link #NO_CHANGE} when it would write nothing.
     */
    public static int decide(PartitionState p, ClusterView cluster, EffectiveReplicaOrder order) {
        int preferred = order.preferred(p);
        int target;
        if (isValidLeader(p, preferred, cluster)) {
            target = preferred;
        } else if (p.hasLeader() && isValidLeader(p, p.leader(), cluster)) {
            target = p.leader();
        } else {
            target = PartitionState.NO_LEADER;
            for (int i = 1; i < p.replicaCount(); i++) {
                int r = order.at(p, i);
                if (isValidLeader(p, r, cluster)) {
                    target = r;
                    break;
                }
            }
            if (target == PartitionState.NO_LEADER
                    && p.isrIsEmpty()
                    && p.elrIsEmpty()
                    && p.lastKnownLeader() != PartitionState.NO_LEADER
                    && cluster.isActive(p.lastKnownLeader())) {
                // KIP-966's balanced recovery, as Kafka's builder does it: the last known leader, uncleanly.
                target = p.lastKnownLeader();
            }
        }
        return target == p.leader() ? NO_CHANGE : target;
    }

    /**
     * The election rule's verdict for the candidate at position {@code i}. When the preferred replica is
     * the first assigned one, in the ISR and active (most candidates of a recovery), it is elected; when it is
     * out of a non-empty ISR and the leader is an active ISR member (a broker still catching up), nothing
     * changes. The columns say both without touching the partition object; otherwise
     * the rule runs in full.
     */
    static int targetAt(ClusterView cluster, EffectiveReplicaOrder order, int i, int pref) {
        if (order.isAssignmentOrder()) {
            if (cluster.firstReplicaInIsrAt(i)) {
                if (cluster.isActiveAt(pref)) {
                    return cluster.brokerIdAt(pref);
                }
            } else if (!cluster.isrEmptyAt(i)
                    && cluster.leaderInIsrAt(i)
                    && cluster.isActiveAt(cluster.leaderIndexAt(i))) {
                // The preferred replica is out of a non-empty ISR, so it cannot lead; the leader is valid and stays.
                return NO_CHANGE;
            }
        }
        return decide(cluster.partitionAt(i), cluster, order);
    }

    /** In the ISR (or in the ELR when the ISR is empty) and on an active broker. */
    public static boolean isValidLeader(PartitionState p, int replica, ClusterView cluster) {
        if (!cluster.isActive(replica)) {
            return false;
        }
        return p.isrContains(replica) || (p.isrIsEmpty() && p.elrContains(replica));
    }
}
