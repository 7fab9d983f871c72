package io.leaderpacer.simulator.model;

import io.leaderpacer.simulator.scenario.ModelKey;
import io.leaderpacer.simulator.scenario.ModelParameters;
import io.leaderpacer.simulator.sim.IntList;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * How a follower's catch-up delays the acks=all writes of the partitions it already follows in sync, fetcher by
 * fetcher, as Kafka's replica fetchers work (Kafka 4.3.1: {@code RemoteLeaderEndPoint.buildFetch},
 * {@code ReplicaManager.readFromLog}, {@code FetchSession}, {@code AbstractFetcherThread}).
 *
 * <p>A follower fetches every partition it follows from one leader on fetcher thread {@code p mod numReplicaFetchers},
 * in-sync and catching-up ones in the same fetch, and appends the whole response before its next fetch. The leader
 * completes an acks=all write once the follower's next fetch reports its offset. So an in-sync write waits for a
 * catch-up response only while one is in flight on its fetcher:
 * <ul>
 *   <li><b>How long a catch-up response takes</b>: {@code T = S / c}, where the response {@code S} is what the
 *       fetcher's catching-up partitions hold, up to {@code replicaFetchMaxBytes} each and
 *       {@code replicaFetchResponseMaxBytes} in all, and {@code c} is the rate at which the follower fetches and
 *       appends: its catch-up capacity (unthrottled) shared by its busy fetchers. Not the throttled average: under a
 *       throttle the follower still takes a response at its own speed, just less often.</li>
 *   <li><b>How many writes it catches</b>: the share of the tick the follower spends on catch-up responses,
 *       {@code catch-up fetched / capacity} (1 when it fetches flat out, the rate over the capacity under a binding
 *       throttle), on the fraction of the leader's threads that carry catch-up.</li>
 *   <li><b>How long a caught write waits</b>: while catch-up responses follow one another (no throttle, or one
 *       above what the follower can take), the rest of the response in flight (half of one on average) and then the
 *       response that carries it: {@code 1.5 T}. Under a binding throttle a fetch that finds the quota open carries
 *       one response, which records past the bound and closes the quota again; the next fetch carries the in-sync
 *       partitions alone (the catch-up partitions were left out), so a caught write waits the rest of that one
 *       response: {@code 0.5 T}.</li>
 * </ul>
 * Not modelled: Kafka's leader fills a response in its fetch session's order and moves every partition that returned
 * data to the end of it ({@code IncrementalFetchContext}), so when the catching-up partitions hold more than one
 * response, an in-sync partition may wait several responses for its turn. With that term the calibration lost the
 * difference between its two policies (docs/evidence/JOURNAL.md, "Tried and dropped: the fetch session's round").
 * {@code followerFetchWaitScale} multiplies the caught wait of back-to-back catch-up, {@code throttledFetchWaitScale}
 * that under a binding throttle (1 = the arithmetic alone): the calibration's runs had no throttle, so they fit the first
 * and say nothing of the second.
 */
public final class FetchSharing {

    private final ClusterLayout layout;
    private final ModelCluster cluster;
    private final Replication replication;
    private final double fetchMaxBytes;
    private final double responseMaxBytes;
    private final int fetchers;
    private final double scale;
    private final double throttledScale;
    /** Per follower with catch-up: per leader, the share of its in-sync writes caught behind a catch-up response. */
    private final Map<Integer, double[]> share = new HashMap<>();
    /** Per follower with catch-up: per leader, the mean extra wait (ms) of a caught write. */
    private final Map<Integer, double[]> waitMs = new HashMap<>();
    /** Per broker: one catch-up response of each of its busy fetchers, together (bytes). */
    private final double[] responseUnit;
    /** Scratch, per (leader, thread): catching-up partitions and what they hold up to replicaFetchMaxBytes each. */
    private final int[] count;

    private final double[] held;

    public FetchSharing(ClusterLayout layout, ModelCluster cluster, Replication replication, ModelParameters model) {
        this.layout = layout;
        this.cluster = cluster;
        this.replication = replication;
        fetchMaxBytes = model.get(ModelKey.REPLICA_FETCH_MAX_BYTES);
        responseMaxBytes = model.get(ModelKey.REPLICA_FETCH_RESPONSE_MAX_BYTES);
        fetchers = (int) model.get(ModelKey.NUM_REPLICA_FETCHERS);
        scale = model.get(ModelKey.FETCH_WAIT_SCALE);
        throttledScale = model.get(ModelKey.THROTTLED_FETCH_WAIT_SCALE);
        responseUnit = new double[layout.brokers];
        count = new int[layout.brokers * fetchers];
        held = new double[layout.brokers * fetchers];
    }

    /**
     * Recomputes every follower's fetchers after a replication step.
     *
     * @param capacity per broker, the catch-up its fetchers could take unthrottled in the step (bytes/s)
     * @param throttle whether a throttle held each broker's catch-up below that capacity
     */
    public void update(double[] capacity, FollowerThrottle throttle) {
        share.clear();
        waitMs.clear();
        Arrays.fill(responseUnit, 0);
        for (int f = 0; f < layout.brokers; f++) {
            if (replication.laggingCount(f) > 0 && cluster.isFetching(f)) {
                updateFollower(f, capacity[f], throttle.bound(f));
            }
        }
    }

    private void updateFollower(int f, double capacity, boolean bound) {
        Arrays.fill(count, 0);
        Arrays.fill(held, 0);
        IntList slots = replication.laggingSlots(f);
        for (int i = 0; i < slots.size(); i++) {
            int slot = slots.get(i);
            double lag = replication.lagBytes(slot);
            if (replication.isStalled(slot) || replication.isStuck(slot) || lag <= 0) {
                continue;
            }
            int p = layout.slotPartition[slot];
            int leader = cluster.leader(p);
            if (leader < 0 || !cluster.isAlive(leader)) {
                continue;
            }
            int k = leader * fetchers + p % fetchers;
            count[k]++;
            held[k] += Math.min(fetchMaxBytes, lag);
        }
        int busy = 0;
        for (int k = 0; k < count.length; k++) {
            if (count[k] > 0) {
                busy++;
                responseUnit[f] += Math.min(responseMaxBytes, held[k]);
            }
        }
        if (busy == 0 || capacity <= 0 || (bound ? throttledScale : scale) <= 0) {
            return;
        }
        double perFetcher = capacity / busy;
        double caught = Math.min(1, replication.catchUpIn(f) / capacity);
        if (caught <= 0) {
            return;
        }
        double[] shareRow = new double[layout.brokers];
        double[] waitRow = new double[layout.brokers];
        for (int leader = 0; leader < layout.brokers; leader++) {
            int threads = 0;
            double sum = 0;
            for (int t = 0; t < fetchers; t++) {
                int k = leader * fetchers + t;
                if (count[k] == 0) {
                    continue;
                }
                threads++;
                double responseMs = Math.min(responseMaxBytes, held[k]) / perFetcher * 1000;
                sum += responseMs * (bound ? 0.5 : 1.5);
            }
            if (threads > 0) {
                shareRow[leader] = caught * threads / fetchers;
                waitRow[leader] = (bound ? throttledScale : scale) * sum / threads;
            }
        }
        share.put(f, shareRow);
        waitMs.put(f, waitRow);
    }

    /** The share of follower {@code f}'s in-sync writes from {@code leader} caught behind a catch-up response. */
    public double caughtShare(int f, int leader) {
        double[] row = share.get(f);
        return row == null ? 0 : row[leader];
    }

    /** The mean extra wait (ms) of such a caught write. */
    public double caughtWaitMs(int f, int leader) {
        double[] row = waitMs.get(f);
        return row == null ? 0 : row[leader];
    }

    /** One catch-up response of each of broker {@code b}'s busy fetchers, together: what a fetch past an open quota carries. */
    public double responseUnit(int b) {
        return responseUnit[b];
    }

    /** {@link #responseUnit} of every broker, for the throttle. */
    public double[] responseUnits() {
        return responseUnit;
    }
}
