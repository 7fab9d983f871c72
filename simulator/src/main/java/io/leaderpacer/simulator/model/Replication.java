package io.leaderpacer.simulator.model;

import io.leaderpacer.engine.cluster.PartitionState;
import io.leaderpacer.simulator.sim.IntList;

import java.util.Arrays;

/**
 * Follower replicas catching up: how far behind each replica is, which ones are stalled or stuck,
 * and one time step of catch-up that shares a broker's spare fetch bandwidth across its lagging
 * replicas.
 *
 * <p>A replica is <em>caught up</em> when it has nothing left to fetch. A caught-up replica not in
 * the ISR asks to join it; an ISR member that has not been caught up for
 * {@code replica.lag.time.max.ms} is asked to leave. Both requests go through the controller
 * (see {@link IsrRequests}), which applies them after the AlterPartition delay.
 */
public final class Replication {

    /** Where ISR change requests go (the leader's AlterPartition to the controller). */
    public interface IsrRequests {
        void join(int slot);

        void shrink(int slot);
    }

    private final ClusterLayout layout;
    private final ModelCluster cluster;
    /** Bytes each replica slot still has to fetch. */
    private final double[] lagBytes;
    /** The slot's fetching is stalled (a stuck log directory or fetcher thread). */
    private final boolean[] stalled;
    /** The slot never catches up (a straggler: for example a fetch error on a corrupt segment). */
    private final boolean[] stuck;
    /** Since when the slot has not been caught up: replica.lag.time.max.ms counts from here. */
    private final long[] behindSinceMs;
    /** An ISR request for the slot is in flight (so it is not sent every tick). */
    private final boolean[] requestPending;
    /** The slot is in its broker's lagging list. */
    private final boolean[] listed;
    /** Per broker, the slots that are not caught up. */
    private final IntList[] lagging;
    /** Bytes per second of all of a broker's replicas (static). */
    private final long[] replicaBytes;
    /** Per broker, bytes per second of its not-caught-up replicas, as of the last step. */
    private final long[] laggingBytes;
    /** Per broker, catch-up bytes per second it fetched in the last step. */
    private final double[] catchUpIn;
    /** Per broker, catch-up bytes per second it served as leader in the last step. */
    private final double[] catchUpServed;
    /** When each broker's process stopped, for the lag it comes back with. */
    private final long[] stoppedAtMs;
    /**
     * Per broker, the part of its grant its replicas of partitions it is not the preferred leader of share while any it
     * is the preferred leader of still lag (catch-up pacing's preferred replicas first); NaN: one share for all.
     */
    private final double[] restFraction;
    /** Per broker, bytes fetched into its lagging replicas since the start: what an agent sees them grow by. */
    private final double[] fetchedTotal;
    /** Per broker, bytes written into the partitions of its lagging replicas since the start: their leaders' growth. */
    private final double[] inflowTotal;

    public Replication(ClusterLayout layout, ModelCluster cluster) {
        this.layout = layout;
        this.cluster = cluster;
        int slots = layout.slotBroker.length;
        lagBytes = new double[slots];
        stalled = new boolean[slots];
        stuck = new boolean[slots];
        behindSinceMs = new long[slots];
        requestPending = new boolean[slots];
        listed = new boolean[slots];
        lagging = new IntList[layout.brokers];
        replicaBytes = new long[layout.brokers];
        laggingBytes = new long[layout.brokers];
        catchUpIn = new double[layout.brokers];
        catchUpServed = new double[layout.brokers];
        stoppedAtMs = new long[layout.brokers];
        restFraction = new double[layout.brokers];
        fetchedTotal = new double[layout.brokers];
        inflowTotal = new double[layout.brokers];
        Arrays.fill(restFraction, Double.NaN);
        for (int b = 0; b < layout.brokers; b++) {
            lagging[b] = new IntList();
            for (int i = layout.brokerSlotStart[b]; i < layout.brokerSlotStart[b + 1]; i++) {
                replicaBytes[b] += layout.bytesPerSecond[layout.slotPartition[layout.brokerSlots[i]]];
            }
        }
    }

    /** Caught up: nothing to fetch, and fetching works. */
    public boolean isCaughtUp(int slot) {
        return lagBytes[slot] <= 0 && !stalled[slot] && !stuck[slot];
    }

    public boolean isStalled(int slot) {
        return stalled[slot];
    }

    public boolean isStuck(int slot) {
        return stuck[slot];
    }

    public long behindSinceMs(int slot) {
        return behindSinceMs[slot];
    }

    public double lagBytes(int slot) {
        return lagBytes[slot];
    }

    /** Bytes fetched into broker {@code b}'s lagging replicas since the start (for flows between two looks). */
    public double fetchedTotal(int b) {
        return fetchedTotal[b];
    }

    /** Bytes written into the partitions of broker {@code b}'s lagging replicas since the start. */
    public double inflowTotal(int b) {
        return inflowTotal[b];
    }

    /** Bytes per second a broker fetches for caught-up follower replicas. */
    public long inSyncFollowBytes(int b) {
        if (!cluster.isFetching(b)) {
            return 0;
        }
        return Math.max(0, replicaBytes[b] - cluster.leadBytes(b) - laggingBytes[b]);
    }

    public double catchUpIn(int b) {
        return catchUpIn[b];
    }

    public double catchUpServed(int b) {
        return catchUpServed[b];
    }

    public int laggingCount(int b) {
        return lagging[b].size();
    }

    /** All slots of a broker lagging (for the report: replicas still catching up). */
    public IntList laggingSlots(int b) {
        return lagging[b];
    }

    /** The request was applied or dropped by the controller: a new one may be sent. */
    public void requestDone(int slot) {
        requestPending[slot] = false;
    }

    // ------------------------------------------------------------------ broker lifecycle

    /** The broker's process stopped: its replicas stop fetching until it is back. */
    public void brokerStopped(int b, long nowMs) {
        stoppedAtMs[b] = nowMs;
        IntList list = lagging[b];
        for (int i = 0; i < list.size(); i++) {
            listed[list.get(i)] = false;
        }
        list.clear();
        laggingBytes[b] = 0;
        catchUpIn[b] = 0;
    }

    /**
     * The broker is back and unfenced: every replica it does not lead is behind by what was
     * produced while it was down, or, with a replaced disk, by the whole retained log.
     *
     * @param stuckSlots slots that will never catch up
     */
    public void brokerResumed(int b, long nowMs, boolean diskReplaced, int[] stuckSlots) {
        double downSeconds = Math.max(0, nowMs - stoppedAtMs[b]) / 1000.0;
        for (int i = layout.brokerSlotStart[b]; i < layout.brokerSlotStart[b + 1]; i++) {
            int slot = layout.brokerSlots[i];
            int p = layout.slotPartition[slot];
            if (cluster.leader(p) == b) {
                continue;
            }
            double seconds = diskReplaced
                    ? Math.max(downSeconds, layout.retentionMsByTopic[layout.topicOf[p]] / 1000.0)
                    : downSeconds;
            lagBytes[slot] = layout.bytesPerSecond[p] * seconds + layout.backlogBytes[p];
            behindSinceMs[slot] = stoppedAtMs[b];
            list(b, slot);
        }
        for (int slot : stuckSlots) {
            stuck[slot] = true;
            list(b, slot);
        }
    }

    /** A follower stall starts on the given slots. */
    public void stall(int[] slots, long nowMs) {
        for (int slot : slots) {
            int b = layout.slotBroker[slot];
            if (isCaughtUp(slot)) {
                behindSinceMs[slot] = nowMs;
            }
            stalled[slot] = true;
            list(b, slot);
        }
    }

    /** The stall ends: the slots fetch again and catch up what they missed. */
    public void unstall(int[] slots) {
        for (int slot : slots) {
            stalled[slot] = false;
        }
    }

    /** The slot's broker became the partition's leader: a leader has nothing to fetch. */
    public void becameLeader(int slot) {
        lagBytes[slot] = 0;
        stalled[slot] = false;
        stuck[slot] = false;
    }

    private void list(int b, int slot) {
        if (!listed[slot]) {
            listed[slot] = true;
            lagging[b].add(slot);
        }
    }

    /**
     * Has broker {@code b}'s replicas of the partitions it is the preferred leader of catch up first: while any of them
     * lags, the others share {@code restFraction} of its grant and they share the rest, as catch-up pacing's
     * {@code preferred.first} splits its rate (the decided rate to them, the min rate to the others); NaN: every lagging
     * replica shares alike. A fraction, not a rate, because a throttled grant comes in whole responses: each one is split.
     */
    public void preferredFirst(int b, double restFraction) {
        this.restFraction[b] = restFraction;
    }

    // ------------------------------------------------------------------ one time step

    /**
     * Advances catch-up on every fetching broker by {@code dtMs}, given each broker's catch-up
     * bandwidth, and sends the ISR requests that follow.
     *
     * @param grantBytesPerSecond per broker, the bandwidth its lagging replicas may share
     */
    public void step(long nowMs, long dtMs, double[] grantBytesPerSecond, long lagTimeMaxMs, IsrRequests isr) {
        double dt = dtMs / 1000.0;
        Arrays.fill(catchUpServed, 0);
        for (int b = 0; b < layout.brokers; b++) {
            IntList list = lagging[b];
            catchUpIn[b] = 0;
            if (list.isEmpty()) {
                laggingBytes[b] = 0;
                continue;
            }
            boolean fetching = cluster.isFetching(b);
            int sharingFirst = 0;
            int sharingRest = 0;
            if (fetching) {
                for (int i = 0; i < list.size(); i++) {
                    int slot = list.get(i);
                    if (!stalled[slot] && !stuck[slot] && hasLiveLeader(layout.slotPartition[slot])) {
                        if (goesFirst(b, slot)) {
                            sharingFirst++;
                        } else {
                            sharingRest++;
                        }
                    }
                }
            }
            double[] shares = shares(b, grantBytesPerSecond[b], sharingFirst, sharingRest);
            double used = 0;
            long stillLaggingBytes = 0;
            for (int i = 0; i < list.size(); ) {
                int slot = list.get(i);
                int p = layout.slotPartition[slot];
                int leader = cluster.leader(p);
                boolean leaderLive = hasLiveLeader(p);
                double produced = leaderLive ? layout.bytesPerSecond[p] * dt : 0;
                if (leader == b) {
                    // It leads now (for example after an unclean election): nothing to fetch.
                    becameLeader(slot);
                    listed[slot] = false;
                    list.swapRemove(i);
                    continue;
                }
                inflowTotal[b] += produced;
                if (!fetching || stalled[slot] || stuck[slot] || !leaderLive) {
                    lagBytes[slot] += produced;
                } else {
                    double share = goesFirst(b, slot) ? shares[0] : shares[1];
                    double fetched = Math.min(share * dt, lagBytes[slot] + produced);
                    lagBytes[slot] += produced - fetched;
                    used += fetched;
                    fetchedTotal[b] += fetched;
                    catchUpServed[leader] += fetched / dt;
                    if (lagBytes[slot] <= 1e-6) {
                        lagBytes[slot] = 0;
                        listed[slot] = false;
                        list.swapRemove(i);
                        if (!cluster.slotInIsr(slot) && !requestPending[slot]) {
                            requestPending[slot] = true;
                            isr.join(slot);
                        }
                        continue;
                    }
                }
                if (cluster.slotInIsr(slot)
                        && !requestPending[slot]
                        && leader != PartitionState.NO_LEADER
                        && nowMs - behindSinceMs[slot] >= lagTimeMaxMs) {
                    requestPending[slot] = true;
                    isr.shrink(slot);
                }
                stillLaggingBytes += layout.bytesPerSecond[p];
                i++;
            }
            laggingBytes[b] = stillLaggingBytes;
            catchUpIn[b] = used / dt;
        }
    }

    /** Whether broker {@code b} orders its catch-up and this replica of it goes first. */
    private boolean goesFirst(int b, int slot) {
        return !Double.isNaN(restFraction[b]) && cluster.preferred(layout.slotPartition[slot]) == b;
    }

    /**
     * Each lagging replica's share of the broker's grant: {first, rest}. Without an order, or once no replica going
     * first lags (or none of the rest does), all share alike; otherwise the rest share their fraction and the first the
     * remainder.
     */
    private double[] shares(int b, double grant, int first, int rest) {
        if (first == 0 || rest == 0) {
            int all = first + rest;
            double each = all == 0 ? 0 : grant / all;
            return new double[] {each, each};
        }
        double restBudget = grant * restFraction[b];
        return new double[] {(grant - restBudget) / first, restBudget / rest};
    }

    private boolean hasLiveLeader(int p) {
        int leader = cluster.leader(p);
        return leader != PartitionState.NO_LEADER && cluster.isAlive(leader);
    }
}
