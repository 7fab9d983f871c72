package io.leaderpacer.simulator.model;

import io.leaderpacer.engine.cluster.PartitionState;
import io.leaderpacer.simulator.scenario.ModelKey;
import io.leaderpacer.simulator.scenario.ModelParameters;

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
 * <p><b>Fetcher sharing.</b> A follower fetches all the partitions it follows from one leader in the same fetch
 * requests (per fetcher thread: partition p on thread p mod {@code numReplicaFetchers}). When some of them are still
 * catching up, each response is filled with their backlog, up to {@code replicaFetchMaxBytes} per partition and
 * {@code replicaFetchResponseMaxBytes} in all, and the in-sync partitions on the same thread wait for it: the leader
 * only advances the high watermark when the follower's next fetch reports the new offset, so an acks=all write
 * waits on average 1.5 fetch cycles (the rest of the current one, then the one that carries it), where a cycle is
 * the response size over the fetcher's share of the follower's catch-up throughput. That slows acks=all on
 * partitions led by other brokers whatever the leadership policy does; {@code followerFetchWaitScale} scales it.
 * Producers with acks=1 wait for no follower.
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
    private final double fetchMaxBytes;
    private final double responseMaxBytes;
    private final int fetchers;
    private final double fetchWaitScale;
    /** Per follower with catch-up, the extra acks=all wait (ms) per leader it fetches from: leader to ms. */
    private final java.util.Map<Integer, double[]> fetchWait = new java.util.HashMap<>();
    /** Scratch: lagging partitions per leader of one follower. */
    private final int[] laggingByLeader;
    /** Per broker: when a crashed broker will be fenced, or Long.MIN_VALUE. */
    private final long[] crashFenceAtMs;

    public LatencyModel(ClusterLayout layout, ModelCluster cluster, Replication replication, LeadershipGains gains,
                        ModelParameters model) {
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
        fetchMaxBytes = model.get(ModelKey.REPLICA_FETCH_MAX_BYTES);
        responseMaxBytes = model.get(ModelKey.REPLICA_FETCH_RESPONSE_MAX_BYTES);
        fetchers = (int) model.get(ModelKey.NUM_REPLICA_FETCHERS);
        fetchWaitScale = model.get(ModelKey.FETCH_WAIT_SCALE);
        laggingByLeader = new int[layout.brokers];
        leaderMs = new double[layout.brokers];
        followerMs = new double[layout.brokers];
        crashFenceAtMs = new long[layout.brokers];
        java.util.Arrays.fill(crashFenceAtMs, Long.MIN_VALUE);
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
        }
        updateFetchWaits();
    }

    /** Recomputes, for every follower still catching up, the wait its in-sync partitions share with the catch-up. */
    private void updateFetchWaits() {
        fetchWait.clear();
        if (fetchWaitScale <= 0) {
            return;
        }
        for (int f = 0; f < layout.brokers; f++) {
            if (replication.laggingCount(f) == 0 || !cluster.isFetching(f)) {
                continue;
            }
            double throughput = replication.catchUpIn(f);
            if (throughput <= 0) {
                continue;
            }
            java.util.Arrays.fill(laggingByLeader, 0);
            io.leaderpacer.simulator.sim.IntList slots = replication.laggingSlots(f);
            for (int i = 0; i < slots.size(); i++) {
                int slot = slots.get(i);
                if (replication.isStalled(slot) || replication.isStuck(slot) || replication.lagBytes(slot) <= 0) {
                    continue;
                }
                int leader = cluster.leader(layout.slotPartition[slot]);
                if (leader != PartitionState.NO_LEADER && cluster.isAlive(leader)) {
                    laggingByLeader[leader]++;
                }
            }
            int activeThreads = 0;
            for (int l = 0; l < layout.brokers; l++) {
                activeThreads += Math.min(fetchers, laggingByLeader[l]);
            }
            if (activeThreads == 0) {
                continue;
            }
            double perThread = throughput / activeThreads;
            double[] row = new double[layout.brokers];
            for (int l = 0; l < layout.brokers; l++) {
                int n = laggingByLeader[l];
                if (n == 0) {
                    continue;
                }
                double perFetcher = Math.max(1, Math.ceil((double) n / fetchers));
                double response = Math.min(responseMaxBytes, perFetcher * fetchMaxBytes);
                double cycleMs = response / perThread * 1000;
                // With fewer lagging partitions than threads, only that share of the in-sync ones is on a busy thread.
                double shared = Math.min(1.0, (double) n / fetchers);
                row[l] = fetchWaitScale * 1.5 * cycleMs * shared;
            }
            fetchWait.put(f, row);
        }
    }

    /** The delay of follower {@code f} in the write path of a partition led by {@code leader}. */
    private double followerDelay(int f, int leader) {
        double[] row = fetchWait.get(f);
        return row == null ? followerMs[f] : followerMs[f] + row[leader];
    }

    /** Mean latency of a partition led by {@code leader} with the given in-sync followers, without move costs. */
    public double steadyMeanMs(int leader, int[] followers) {
        double slowest = 0;
        for (int f : followers) {
            slowest = Math.max(slowest, followerDelay(f, leader));
        }
        return rtt + leaderMs[leader] + slowest;
    }

    /** The mean of one partition now, including the move cost if it moved recently. */
    public double meanMs(int p, long movedAtMs, long nowMs) {
        int leader = cluster.leader(p);
        double slowest = 0;
        int base = layout.replicaStart[p];
        int mask = layout.acksAll[p] ? cluster.isrMask(p) : 0;
        for (int j = 0; j < layout.replicaCount(p); j++) {
            int f = layout.slotBroker[base + j];
            if (f != leader && ((mask & (1 << j)) != 0 || joining(p, j))) {
                slowest = Math.max(slowest, followerDelay(f, leader));
            }
        }
        double mean = rtt + leaderMs[leader] + slowest;
        if (movedAtMs != Long.MIN_VALUE && nowMs - movedAtMs < moveTransientMs) {
            mean += moveRetry * (1 + gains.inWindow(leader, nowMs) / stormScale);
        }
        return mean;
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
        return layout.acksAll[p] && !cluster.slotInIsr(slot) && f != cluster.leader(p) && cluster.isActive(f)
                && cluster.isFetching(f) && replication.isCaughtUp(slot);
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
