package io.leaderpacer.simulator.model;

import io.leaderpacer.engine.cluster.PartitionState;
import io.leaderpacer.simulator.scenario.ModelKey;
import io.leaderpacer.simulator.scenario.ModelParameters;

import java.util.Arrays;

/**
 * Mean produce latency (acks=all) of a partition, from the state of its leader and ISR:
 *
 * <pre>
 *   mean(p) = networkRttMs
 *           + leaderServiceMs / (1 - u(leader)) + backlog(leader)         queueing on the leader
 *           + max over ISR followers f of
 *               replicationBaseMs + followerSaturationMs x (1/(1 - u(f)) - 1) + backlog(f)   slowest follower
 *           + moveRetryMs x (1 + gained(leader) / leadershipStormScale)    for moveTransientSeconds after a move
 * </pre>
 *
 * where u is capped for the stationary term and the backlog (seconds of work an overloaded broker could not serve
 * yet, {@link BrokerLoad#backlogMs}) is not, so a long enough overload makes requests wait past request.timeout.ms.
 * A cold cache after a restart loads the disk with reads ({@link BrokerLoad}); it adds no term here, because
 * appends go to the page cache.
 *
 * <p>Plus, as exact waits rather than noise, the time until a blocked partition can make progress
 * again ({@link #blockedMs}).
 *
 * <p><b>A replica about to join the ISR</b> is waited on already: from the moment it has caught up, Kafka's leader
 * counts it in the high watermark and in acks=all ({@code Partition.maximalIsr} while the AlterPartition is in
 * flight, and before that a caught-up, ISR-eligible replica it "should wait for to join the ISR"), so until the
 * controller commits the change the partition's writes wait for a follower the ISR does not show yet
 * ({@link #waitsForJoiningReplica}).
 *
 * <p><b>Fetcher sharing.</b> While an in-sync follower also catches up on other partitions, a share of the writes it
 * follows arrive while a catch-up response is in flight on their fetcher and wait for it ({@link FetchSharing}): each
 * tick a group's requests are split into the caught ones ({@link #caughtShare}, with the wait) and the others
 * (without), each with its own mean. Where several followers of a partition catch up, the split takes the largest
 * share and the caught writes wait for every catching-up follower (the moments are taken to coincide).
 * Producers with acks=1 wait for no follower.
 *
 * <p><b>A broker standing at its quota.</b> Under a CPU quota with a period a restarted broker stands a share of the
 * time ({@link BrokerLoad#standingShare}); a write whose leader or in-sync follower stands when it needs it waits half
 * a stop on average. Each tick a group's requests are split again by that share ({@link #standingShare}), independent
 * of the catch-up split, the wait taken from the standing broker of the write path.
 */
public final class LatencyModel {

    private final ClusterLayout layout;
    private final ModelCluster cluster;
    private final Replication replication;
    private final LeadershipGains gains;
    private final double rtt;
    private final double leaderService;
    private final double replicationBase;
    private final double followerSaturation;
    private final double moveRetry;
    private final long moveTransientMs;
    private final double stormScale;
    private final long lagTimeMaxMs;
    private final long alterPartitionMs;

    /** Per broker, refreshed each tick: its queueing (stationary + backlog) as a leader. */
    private final double[] leaderMs;
    /** Per broker, refreshed each tick: its delay as an in-sync follower. */
    private final double[] followerMs;

    /** Per broker, refreshed each tick: the share of the time it stands at its quota's period end. */
    private final double[] standShare;
    /** Per broker, refreshed each tick: what a write that needs it while it stands waits (ms). */
    private final double[] standWaitMs;

    private final FetchSharing sharing;
    /** Scratch: the followers in one partition's write path ({@link #writePath}). */
    private final int[] path;
    /** Per broker: when a crashed broker will be fenced, or Long.MIN_VALUE. */
    private final long[] crashFenceAtMs;

    public LatencyModel(
            ClusterLayout layout,
            ModelCluster cluster,
            Replication replication,
            LeadershipGains gains,
            FetchSharing sharing,
            ModelParameters model) {
        this.sharing = sharing;
        this.layout = layout;
        this.cluster = cluster;
        this.replication = replication;
        this.gains = gains;
        rtt = model.get(ModelKey.NETWORK_RTT_MS);
        leaderService = model.get(ModelKey.LEADER_SERVICE_MS);
        replicationBase = model.get(ModelKey.REPLICATION_BASE_MS);
        followerSaturation = model.get(ModelKey.FOLLOWER_SATURATION_MS);
        moveRetry = model.get(ModelKey.MOVE_RETRY_MS);
        moveTransientMs = (long) (model.get(ModelKey.MOVE_TRANSIENT_SECONDS) * 1000);
        stormScale = model.get(ModelKey.STORM_SCALE);
        lagTimeMaxMs = (long) model.get(ModelKey.REPLICA_LAG_TIME_MAX_MS);
        alterPartitionMs = (long) model.get(ModelKey.ALTER_PARTITION_MS);
        leaderMs = new double[layout.brokers];
        followerMs = new double[layout.brokers];
        standShare = new double[layout.brokers];
        standWaitMs = new double[layout.brokers];
        crashFenceAtMs = new long[layout.brokers];
        int maxReplicas = 0;
        for (int p = 0; p < layout.partitions; p++) {
            maxReplicas = Math.max(maxReplicas, layout.replicaCount(p));
        }
        path = new int[maxReplicas];
        Arrays.fill(crashFenceAtMs, Long.MIN_VALUE);
    }

    public long moveTransientMs() {
        return moveTransientMs;
    }

    /** A broker crashed and will be fenced at the given time; {@code Long.MIN_VALUE} clears it. */
    public void setCrashFenceAt(int b, long atMs) {
        crashFenceAtMs[b] = atMs;
    }

    public boolean isCrashedUnfenced(int b) {
        return crashFenceAtMs[b] != Long.MIN_VALUE;
    }

    /** Refreshes the per-broker terms from the brokers' utilisation at {@code nowMs}. */
    public void update(BrokerLoad load, long nowMs) {
        for (int b = 0; b < leaderMs.length; b++) {
            double u = load.utilisation(b);
            double backlog = load.backlogMs(b);
            leaderMs[b] = leaderService / (1 - u) + backlog;
            followerMs[b] = replicationBase + followerSaturation * (1 / (1 - u) - 1) + backlog;
            standShare[b] = load.standingShare(b);
            standWaitMs[b] = load.standingWaitMs(b);
        }
    }

    /** The delay of follower {@code f} in the write path of a partition led by {@code leader}; caught: behind catch-up. */
    private double followerDelay(int f, int leader, boolean caught) {
        return caught ? followerMs[f] + sharing.caughtWaitMs(f, leader) : followerMs[f];
    }

    /** The share of a group's writes caught behind a catch-up response of one of its followers. */
    public double caughtShare(int leader, int[] followers) {
        double share = 0;
        for (int f : followers) {
            share = Math.max(share, sharing.caughtShare(f, leader));
        }
        return share;
    }

    /** The share of a group's writes that need a broker (its leader or a follower) while it stands at its quota. */
    public double standingShare(int leader, int[] followers) {
        return standShare[standingBroker(leader, followers, followers.length)];
    }

    /** Of the leader and the first {@code n} followers, the broker that stands the largest share (the leader if none). */
    private int standingBroker(int leader, int[] followers, int n) {
        int b = leader;
        for (int i = 0; i < n; i++) {
            if (standShare[followers[i]] > standShare[b]) {
                b = followers[i];
            }
        }
        return b;
    }

    /**
     * Mean latency of a partition led by {@code leader} with the given in-sync followers, without move costs; caught:
     * behind a catch-up response; standing: needing a broker while it stands at its quota.
     */
    public double steadyMeanMs(int leader, int[] followers, boolean caught, boolean standing) {
        double slowest = 0;
        for (int f : followers) {
            slowest = Math.max(slowest, followerDelay(f, leader, caught));
        }
        double stood = standing ? standWaitMs[standingBroker(leader, followers, followers.length)] : 0;
        return rtt + leaderMs[leader] + slowest + stood;
    }

    /** The share of one partition's writes caught behind a catch-up response (its ISR and a joining replica). */
    public double caughtShare(int p) {
        int leader = cluster.leader(p);
        double share = 0;
        for (int i = 0, n = writePath(p, leader); i < n; i++) {
            share = Math.max(share, sharing.caughtShare(path[i], leader));
        }
        return share;
    }

    /** The share of one partition's writes that need a broker of its write path while it stands at its quota. */
    public double standingShare(int p) {
        int leader = cluster.leader(p);
        return standShare[standingBroker(leader, path, writePath(p, leader))];
    }

    /**
     * The mean of one partition now, including the move cost if it moved recently; caught: behind catch-up; standing:
     * needing a broker of its write path while it stands at its quota.
     */
    public double meanMs(int p, long movedAtMs, long nowMs, boolean caught, boolean standing) {
        int leader = cluster.leader(p);
        double slowest = 0;
        int n = writePath(p, leader);
        for (int i = 0; i < n; i++) {
            slowest = Math.max(slowest, followerDelay(path[i], leader, caught));
        }
        double mean = rtt + leaderMs[leader] + slowest + (standing ? standWaitMs[standingBroker(leader, path, n)] : 0);
        if (movedAtMs != Long.MIN_VALUE && nowMs - movedAtMs < moveTransientMs) {
            mean += moveRetry * (1 + gains.inWindow(leader, nowMs) / stormScale);
        }
        return mean;
    }

    /**
     * Fills {@link #path} with the followers an acks=all write to {@code p} waits for (its ISR and a joining replica,
     * none with acks=1) and returns how many.
     */
    private int writePath(int p, int leader) {
        int n = 0;
        int base = layout.replicaStart[p];
        int mask = layout.acksAll[p] ? cluster.isrMask(p) : 0;
        for (int j = 0; j < layout.replicaCount(p); j++) {
            int f = layout.slotBroker[base + j];
            if (f != leader && ((mask & (1 << j)) != 0 || joining(p, j))) {
                path[n++] = f;
            }
        }
        return n;
    }

    /** Whether an acks=all write to the partition waits for a replica that has caught up but is not in the ISR yet. */
    public boolean waitsForJoiningReplica(int p) {
        for (int j = 0; j < layout.replicaCount(p); j++) {
            if (joining(p, j)) {
                return true;
            }
        }
        return false;
    }

    /** Replica j of p: outside the ISR, caught up and eligible (active, not the leader), with acks=all writes. */
    private boolean joining(int p, int j) {
        int slot = layout.replicaStart[p] + j;
        int f = layout.slotBroker[slot];
        return layout.acksAll[p]
                && !cluster.slotInIsr(slot)
                && f != cluster.leader(p)
                && cluster.isActive(f)
                && cluster.isFetching(f)
                && replication.isCaughtUp(slot);
    }

    /**
     * How long a request to the partition must wait before it can even be appended and
     * acknowledged: its leader crashed and is not yet fenced, an ISR follower stopped fetching
     * and is not yet out of the ISR, or there is no leader at all (then: for as long as that has
     * lasted). 0 when nothing blocks it.
     */
    public double blockedMs(int p, long leaderlessSinceMs, long nowMs) {
        int leader = cluster.leader(p);
        if (leader == PartitionState.NO_LEADER) {
            return Math.max(1, nowMs - leaderlessSinceMs) + moveRetry;
        }
        double wait = 0;
        if (crashFenceAtMs[leader] != Long.MIN_VALUE) {
            wait = Math.max(wait, crashFenceAtMs[leader] - nowMs + moveRetry);
        }
        int base = layout.replicaStart[p];
        int mask = layout.acksAll[p] ? cluster.isrMask(p) : 0;
        for (int j = 0; j < layout.replicaCount(p); j++) {
            int slot = base + j;
            int f = layout.slotBroker[slot];
            if (f == leader || (mask & (1 << j)) == 0) {
                continue;
            }
            if (crashFenceAtMs[f] != Long.MIN_VALUE) {
                wait = Math.max(wait, crashFenceAtMs[f] - nowMs);
            } else if (replication.isStalled(slot)) {
                // The high watermark waits for this follower until the leader drops it from the ISR.
                long leaveAt = replication.behindSinceMs(slot) + lagTimeMaxMs + alterPartitionMs;
                wait = Math.max(wait, leaveAt - nowMs);
            }
        }
        return Math.max(0, wait);
    }
}
