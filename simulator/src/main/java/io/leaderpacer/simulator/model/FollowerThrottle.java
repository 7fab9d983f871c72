package io.leaderpacer.simulator.model;

import java.util.Arrays;

/**
 * Kafka's follower replication throttle on every broker that has one: a rate ({@code follower.replication.throttled.rate},
 * per broker or as the cluster default) and replica lists ({@code follower.replication.throttled.replicas}) that name
 * every replica the broker hosts, as {@code *} does, or as a recovering broker's entries set while it is down (when
 * all of its replicas are out of sync).
 *
 * <p>What Kafka does with it, and so the model (Kafka 4.3.1: {@code RemoteLeaderEndPoint.buildFetch},
 * {@code ReplicaFetcherThread.processPartitionData}, {@code ReplicationQuotaManager}):
 * <ul>
 *   <li>A follower leaves a listed partition out of a fetch only while its {@link FollowerQuota} is exceeded and its
 *       own lag estimate for the partition is not 0. In-sync (caught-up) partitions are never held back: the model's
 *       catch-up grant is what is throttled, the in-sync follower traffic never is.</li>
 *   <li>The bytes of every listed partition count toward the quota, in-sync ones included: a rate below the broker's
 *       in-sync inflow keeps the quota exceeded and stalls catch-up.</li>
 *   <li>A fetch that finds the quota open carries whole responses: in a tick, catch-up may take the headroom the
 *       average leaves, rounded up to whole responses of the broker's fetchers, and never more than the broker's own
 *       capacity. A rate above that capacity changes nothing.</li>
 * </ul>
 * A per-broker rate wins over the cluster default, as in Kafka ({@code BrokerConfigHandler}).
 */
public final class FollowerThrottle {

    private final FollowerQuota[] quota;
    /** Per broker, its own rate (bytes/s), or NaN: the cluster default applies. */
    private final double[] brokerRate;
    /** Bytes per second; 0 = no cluster default. */
    private double clusterDefault;
    /** Per broker, whether its lists name only its lagging replicas (catch-up pacing's), not every replica it hosts. */
    private final boolean[] laggingOnly;
    /** Per broker, after {@link #grants}: its rate is below what it could fetch, so the quota opens and closes. */
    private final boolean[] bound;

    private final double[] grant;
    /** {@code replication.quota.window.num}: samples in each broker's quota. */
    private final int windows;
    /** {@code replication.quota.window.size.seconds}, in ms. */
    private final long windowMs;

    /** Throttles on {@code brokers} brokers whose quotas have Kafka's default window. */
    public FollowerThrottle(int brokers) {
        this(brokers, FollowerQuota.defaultWindows(), FollowerQuota.defaultWindowMs());
    }

    /** Throttles whose quotas average over {@code windows} samples of {@code windowMs} ms (a broker setting). */
    public FollowerThrottle(int brokers, int windows, long windowMs) {
        this.windows = windows;
        this.windowMs = windowMs;
        quota = new FollowerQuota[brokers];
        brokerRate = new double[brokers];
        Arrays.fill(brokerRate, Double.NaN);
        bound = new boolean[brokers];
        grant = new double[brokers];
        laggingOnly = new boolean[brokers];
    }

    /** The cluster default rate, bytes per second (0 or less: none). */
    public void setClusterDefault(double bytesPerSecond) {
        clusterDefault = Math.max(0, bytesPerSecond);
    }

    /** A broker's own rate, bytes per second; NaN removes it (the cluster default, if any, applies again). */
    public void setBrokerRate(int b, double bytesPerSecond) {
        brokerRate[b] = bytesPerSecond;
    }

    /**
     * Whether broker {@code b}'s lists name only its lagging replicas, as catch-up pacing lists them, so that its in-sync
     * follower bytes do not count toward its quota; otherwise (as {@code *} or entries set while it is down) every
     * replica it hosts is listed.
     */
    public void listsLaggingOnly(int b, boolean value) {
        laggingOnly[b] = value;
    }

    /** The rate in force on broker {@code b}, bytes per second; 0 = not throttled. */
    public double rate(int b) {
        return Double.isNaN(brokerRate[b]) ? clusterDefault : Math.max(0, brokerRate[b]);
    }

    /**
     * The catch-up bandwidth each broker's lagging replicas may share in the tick starting at {@code nowMs}.
     *
     * @param capacity     per broker, what its fetchers could take unthrottled (bytes/s)
     * @param responseUnit per broker, one catch-up response of each of its fetchers together (bytes): a fetch that finds
     *                     the quota open carries that much
     */
    public double[] grants(double[] capacity, double[] responseUnit, long nowMs, double dtSeconds) {
        for (int b = 0; b < grant.length; b++) {
            double r = rate(b);
            double full = capacity[b];
            if (r <= 0 || full <= 0 || dtSeconds <= 0) {
                grant[b] = full;
                bound[b] = false;
                continue;
            }
            FollowerQuota q = quota(b);
            double allowed;
            if (q.exceeded(nowMs, r)) {
                allowed = 0;
            } else {
                double headroom = q.headroom(nowMs, r);
                double unit = responseUnit[b];
                allowed = unit > 0 ? Math.max(1, Math.ceil(headroom / unit)) * unit : headroom;
            }
            grant[b] = Math.min(full, allowed / dtSeconds);
            bound[b] = r < full;
        }
        return grant;
    }

    /**
     * Counts the tick's bytes of the listed partitions toward each throttled broker's quota: what it fetched to catch
     * up and, unless only its lagging replicas are listed, what it fetched for its in-sync follower replicas.
     */
    public void record(long nowMs, double dtSeconds, Replication replication) {
        for (int b = 0; b < quota.length; b++) {
            double inSync = laggingOnly[b] ? 0 : replication.inSyncFollowBytes(b);
            record(b, (replication.catchUpIn(b) + inSync) * dtSeconds, nowMs);
        }
    }

    /** Counts {@code bytes} that broker {@code b} fetched for listed partitions at {@code nowMs}, if it is throttled. */
    public void record(int b, double bytes, long nowMs) {
        if (rate(b) > 0 && bytes > 0) {
            quota(b).record(bytes, nowMs);
        }
    }

    /** The broker's process stopped: a restarted process starts with an empty quota (its samples lived in memory). */
    public void brokerStopped(int b) {
        quota[b] = null;
    }

    /**
     * Whether broker {@code b}'s quota binds (as of the last {@link #grants}): its rate is below what it could fetch, so
     * that a fetch past an open quota carries one response and closes it again, and the next fetch carries in-sync
     * partitions alone.
     */
    public boolean bound(int b) {
        return bound[b];
    }

    private FollowerQuota quota(int b) {
        if (quota[b] == null) {
            quota[b] = new FollowerQuota(windows, windowMs);
        }
        return quota[b];
    }
}
