package io.leaderpacer.engine.config;

import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

import static io.leaderpacer.engine.config.KeyCheck.require;

/**
 * Catch-up pacing's settings: whether and how a recovering broker's out-of-sync replicas are throttled.
 *
 * <p>Why it exists: once a partition is back in the ISR, a restarted broker that still catches up on others is a
 * slow in-sync follower, and every {@code acks=all} write to that partition waits for it, whoever leads. Kafka's
 * follower throttle leaves in-sync partitions out of the throttle, so slowing the out-of-sync ones keeps the
 * fetches of the in-sync ones short. Off by default: Kafka's behaviour.
 *
 * <p>The three rates need no order between them: each key is valid alone (so a change of one key is never refused
 * because of another's value). In use, the ceiling is the larger of the min and max rates, and the rate is held
 * between the min rate and that ceiling.
 *
 * @param mode                off, static or adaptive
 * @param rates               the rates it sets, starts from and stays between
 * @param targetRatio         the canary's P99 over its steady P99 at or under which the adaptive rate grows
 * @param timing              how often it decides and how long it may pace one broker
 * @param scope               which of a recovering broker's replicas are throttled, and in what order
 */
public record CatchUpPacing(PacingMode mode, Rates rates, double targetRatio, Timing timing, Scope scope) {

    /**
     * Which replicas pacing throttles, and in what order.
     *
     * @param unthrottledLagBytes an out-of-sync replica of a broker that is up and fewer than this many bytes behind its
     *                            leader is left out of the throttle (0 = none is): Kafka's leader may hold the high
     *                            watermark for such a replica before it rejoins the ISR, so its fetches must not wait
     * @param preferredFirst      the replicas the broker is the preferred leader of catch up first, the others at the
     *                            min rate until they are in sync
     * @param lagTimeMaxMs        a broker that went down less than this long ago is not throttled (its leaders still
     *                            count it caught up); {@value #LEADERS_LAG_TIME}: their own
     *                            {@code replica.lag.time.max.ms}; 0: throttled at once
     */
    public record Scope(long unthrottledLagBytes, boolean preferredFirst, long lagTimeMaxMs) {
        /** Read the leaders' own {@code replica.lag.time.max.ms}. */
        public static final long LEADERS_LAG_TIME = -1;

        public Scope {
            require(
                    unthrottledLagBytes >= 0,
                    ConfigKey.CATCH_UP_UNTHROTTLED_LAG_BYTES,
                    Long.toString(unthrottledLagBytes));
            require(lagTimeMaxMs >= LEADERS_LAG_TIME, ConfigKey.CATCH_UP_LAG_TIME_MAX_MS, Long.toString(lagTimeMaxMs));
        }

        /** A scope that takes the leaders' own {@code replica.lag.time.max.ms}. */
        public Scope(long unthrottledLagBytes, boolean preferredFirst) {
            this(unthrottledLagBytes, preferredFirst, LEADERS_LAG_TIME);
        }
    }

    /** Every out-of-sync replica at the pacing rate, those this close to their leader left out. */
    public CatchUpPacing(PacingMode mode, Rates rates, double targetRatio, Timing timing, long unthrottledLagBytes) {
        this(mode, rates, targetRatio, timing, new Scope(unthrottledLagBytes, false));
    }

    /**
     * @param rateBytes    the static rate, or the adaptive mode's start, bytes per second, as set
     * @param minRateBytes the adaptive mode's floor and its additive step per interval, bytes per second
     * @param maxRateBytes the adaptive mode's and the stall detector's ceiling, bytes per second, as set
     */
    public record Rates(long rateBytes, long minRateBytes, long maxRateBytes) {
        public Rates {
            require(rateBytes >= 1024, ConfigKey.CATCH_UP_RATE_BYTES, Long.toString(rateBytes));
            require(minRateBytes >= 1024, ConfigKey.CATCH_UP_MIN_RATE_BYTES, Long.toString(minRateBytes));
            require(maxRateBytes >= 1024, ConfigKey.CATCH_UP_MAX_RATE_BYTES, Long.toString(maxRateBytes));
        }
    }

    /**
     * @param intervalMs how often a recovering broker is looked at and its rate decided
     * @param maxWaitMs  a broker paced this long is left unthrottled until it is back in every ISR; 0 = never
     * @param deadline   by when after its unfencing a broker leads its preferred partitions again
     */
    public record Timing(long intervalMs, long maxWaitMs, Deadline deadline) {
        public Timing {
            require(intervalMs >= 100, ConfigKey.CATCH_UP_INTERVAL_MS, Long.toString(intervalMs));
            require(maxWaitMs >= 0, ConfigKey.CATCH_UP_MAX_WAIT_MS, Long.toString(maxWaitMs));
            Objects.requireNonNull(deadline, "deadline");
        }

        /** No deadline. */
        public Timing(long intervalMs, long maxWaitMs) {
            this(intervalMs, maxWaitMs, Deadline.NONE);
        }
    }

    /**
     * A recovering broker leads its preferred partitions again within {@code ms} of its unfencing.
     *
     * <p>Why the election's pace is part of it: leadership comes back only once a preferred replica is back in its ISR,
     * and then at the pace of the election runs (so many partitions a run, so long between capped runs, and a re-check
     * of the gate); the catch-up must end that much before the deadline.
     *
     * @param ms                   the deadline, from unfencing; 0 = none
     * @param returnMsPerPartition how long the election runs take per partition to hand leadership back
     *                             ({@code throttle.interval.ms} over {@code max.per.run}, 0 when uncapped)
     * @param gateReleaseMs        how long the gate may take to release the broker once it is in sync: its
     *                             {@value GateRecheck#CLEAR_RUNS_TO_RELEASE} clear runs a {@code recheck.interval.ms}
     *                             apart, or the first run and the hysteresis floor if that is longer
     *                             ({@link GateRecheck#releaseMs()})
     */
    public record Deadline(long ms, long returnMsPerPartition, long gateReleaseMs) {
        public static final Deadline NONE = new Deadline(0, 0, 0);

        public Deadline {
            require(ms >= 0, ConfigKey.CATCH_UP_DEADLINE_MS, Long.toString(ms));
        }

        public boolean set() {
            return ms > 0;
        }
    }

    public CatchUpPacing {
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(rates, "rates");
        Objects.requireNonNull(timing, "timing");
        Objects.requireNonNull(scope, "scope");
        require(
                !Double.isNaN(targetRatio) && targetRatio >= 1 && !Double.isInfinite(targetRatio),
                ConfigKey.CATCH_UP_TARGET_RATIO,
                Double.toString(targetRatio));
    }

    /** See {@link Scope#unthrottledLagBytes()}. */
    public long unthrottledLagBytes() {
        return scope.unthrottledLagBytes();
    }

    /** See {@link Scope#preferredFirst()}. */
    public boolean preferredFirst() {
        return scope.preferredFirst();
    }

    /** The deadline for a recovering broker to lead its preferred partitions again. */
    public Deadline deadline() {
        return timing.deadline();
    }

    /** How long after a broker goes down it is not throttled; {@link Scope#LEADERS_LAG_TIME}: the leaders' own. */
    public long lagTimeMaxMs() {
        return scope.lagTimeMaxMs();
    }

    /** The static rate, or the adaptive mode's start, as set. */
    public long rateBytes() {
        return rates.rateBytes();
    }

    /** The adaptive mode's floor and its additive step per interval. */
    public long minRateBytes() {
        return rates.minRateBytes();
    }

    /** The adaptive mode's and the stall detector's ceiling, as set. */
    public long maxRateBytes() {
        return rates.maxRateBytes();
    }

    /** The ceiling in use: the max rate, or the min rate when that is larger. */
    public long ceilingBytes() {
        return Math.max(minRateBytes(), maxRateBytes());
    }

    /** The rate an episode starts at: the rate key's value held between the min rate and the ceiling. */
    public long startRateBytes() {
        return Math.min(ceilingBytes(), Math.max(minRateBytes(), rateBytes()));
    }

    /**
     * When the rate key's value is outside the min rate and the ceiling, what pacing uses instead, in words naming both
     * keys (each key is valid alone, so the pair is held, not refused: an operator must still be told).
     */
    public Optional<String> rateHeldNote() {
        long r = rates.rateBytes();
        if (r >= rates.minRateBytes() && r <= ceilingBytes()) {
            return Optional.empty();
        }
        boolean under = r < rates.minRateBytes();
        return Optional.of(String.format(
                Locale.ROOT,
                "%s=%d is %s %s=%d: pacing %s at %.1f MiB/s",
                ConfigKey.CATCH_UP_RATE_BYTES.key(),
                r,
                under ? "under" : "over",
                under ? ConfigKey.CATCH_UP_MIN_RATE_BYTES.key() : ConfigKey.CATCH_UP_MAX_RATE_BYTES.key(),
                under ? rates.minRateBytes() : ceilingBytes(),
                mode == PacingMode.STATIC ? "runs" : "starts",
                startRateBytes() / 1048576.0));
    }

    public boolean enabled() {
        return mode != PacingMode.OFF;
    }
}
