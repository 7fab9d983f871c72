package io.leaderpacer.simulator.model;

import io.leaderpacer.simulator.scenario.ModelKey;

/**
 * One broker's follower replication quota as Kafka measures it: a {@code SimpleRate} over {@code windows} samples
 * of {@code windowMs} ms each ({@link ModelKey#REPLICATION_QUOTA_WINDOW_NUM},
 * {@link ModelKey#REPLICATION_QUOTA_WINDOW_SIZE_SECONDS}), in the model's time.
 *
 * <p>Why a port and not a token bucket: what producers feel under a throttle depends on how the quota opens and
 * closes. Kafka checks it before each fetch ({@code RemoteLeaderEndPoint.buildFetch}) and records a response's bytes
 * after it ({@code ReplicaFetcherThread.processPartitionData}), so a fetch that finds the quota open carries a full
 * response and overshoots, and the quota then stays closed until time has thinned the average again. The rules
 * below are those of Kafka's {@code SampledStat} and {@code SimpleRate} (clients, {@code metrics.stats}):
 * <ul>
 *   <li>a record goes to the current sample, and starts a new one when the current one is a window old (the new
 *       sample's window starts at that record, not on a grid); at most {@code windows} + 1 samples are kept;</li>
 *   <li>a sample whose last record is {@code windows} windows old is reset (emptied, restarted now);</li>
 *   <li>the rate is the sum of the samples over the time since the oldest sample started, but at least one window
 *       (a measure that finds no sample opens one); it is exceeded when it is above the bound.</li>
 * </ul>
 */
public final class FollowerQuota {

    private final int windows;
    private final long windowMs;
    private final long[] startMs;
    private final long[] lastRecordMs;
    private final double[] bytes;
    /** Samples in use (they are created as records need them, as Kafka's list grows). */
    private int samples;

    private int current;

    /** A quota with Kafka's default window (the model keys' defaults). */
    public FollowerQuota() {
        this(defaultWindows(), defaultWindowMs());
    }

    /** {@code replication.quota.window.num}'s default. */
    public static int defaultWindows() {
        return (int) ModelKey.REPLICATION_QUOTA_WINDOW_NUM.defaultValue();
    }

    /** {@code replication.quota.window.size.seconds}'s default, in ms. */
    public static long defaultWindowMs() {
        return Math.round(ModelKey.REPLICATION_QUOTA_WINDOW_SIZE_SECONDS.defaultValue() * 1000);
    }

    /**
     * A quota over {@code windows} samples of {@code windowMs} ms each.
     *
     * @throws IllegalArgumentException when either is under 1, which Kafka refuses too
     */
    public FollowerQuota(int windows, long windowMs) {
        if (windows < 1 || windowMs < 1) {
            throw new IllegalArgumentException(
                    "a quota window needs at least 1 sample of at least 1 ms: " + windows + " of " + windowMs + " ms");
        }
        this.windows = windows;
        this.windowMs = windowMs;
        startMs = new long[windows + 1];
        lastRecordMs = new long[windows + 1];
        bytes = new double[windows + 1];
    }

    /** Counts {@code value} bytes fetched at {@code nowMs}. */
    public void record(double value, long nowMs) {
        if (samples == 0) {
            open(0, nowMs);
            samples = 1;
        } else if (nowMs - startMs[current] >= windowMs) {
            current = (current + 1) % (windows + 1);
            if (current >= samples) {
                samples++;
            }
            open(current, nowMs);
        }
        bytes[current] += value;
        lastRecordMs[current] = nowMs;
    }

    private void open(int i, long nowMs) {
        startMs[i] = nowMs;
        lastRecordMs[i] = nowMs;
        bytes[i] = 0;
    }

    /** The measured rate at {@code nowMs}, bytes per second. */
    public double rate(long nowMs) {
        return sum(nowMs) * 1000.0 / spanMs(nowMs);
    }

    /** Whether a fetch at {@code nowMs} leaves the throttled catch-up partitions out: the rate is above the bound. */
    public boolean exceeded(long nowMs, double boundBytesPerSecond) {
        return rate(nowMs) > boundBytesPerSecond;
    }

    /** The bytes that can be recorded at {@code nowMs} before the rate goes above the bound (0 when it is). */
    public double headroom(long nowMs, double boundBytesPerSecond) {
        return Math.max(0, boundBytesPerSecond * spanMs(nowMs) / 1000.0 - sum(nowMs));
    }

    private double sum(long nowMs) {
        purge(nowMs);
        double s = 0;
        for (int i = 0; i < samples; i++) {
            s += bytes[i];
        }
        return s;
    }

    /** SimpleRate's window: since the oldest sample started, at least one window. */
    private long spanMs(long nowMs) {
        purge(nowMs);
        if (samples == 0) {
            // Kafka's SampledStat.oldest() opens the first sample when a measure finds none: the first record after
            // it goes into that sample, whose window started at this measure.
            open(0, nowMs);
            samples = 1;
            current = 0;
        }
        long oldest = Long.MAX_VALUE;
        for (int i = 0; i < samples; i++) {
            oldest = Math.min(oldest, startMs[i]);
        }
        return Math.max(nowMs - oldest, windowMs);
    }

    private void purge(long nowMs) {
        for (int i = 0; i < samples; i++) {
            if (nowMs - lastRecordMs[i] >= windows * windowMs) {
                open(i, nowMs);
            }
        }
    }
}
