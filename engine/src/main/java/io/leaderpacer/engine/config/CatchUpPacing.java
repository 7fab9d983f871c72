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
     */
    public record Scope(long unthrottledLagBytes, boolean preferredFirst) {
        public Scope {
            require(
                    unthrottledLagBytes >= 0,
                    ConfigKey.CATCH_UP_UNTHROTTLED_LAG_BYTES,
                    Long.toString(unthrottledLagBytes));
        }
    }

    /** Every out-of-sync replica at the pacing rate, those this close to their leader left out. */
    public CatchUpPacing(PacingMode mode, Rates rates, double targetRatio, Timing timing, long unthrottledLagBytes) {
        this(mode, rates, targetRatio, timing, new Scope(unthrottledLagBytes, false));
    }

    /** Off, with the keys' defaults. */
    public static final CatchUpPacing OFF = new CatchUpPacing(
            PacingMode.OFF, new Rates(20L << 20, 5L << 20, 200L << 20), 1.5, new Timing(2000, 1_800_000), 1L << 20);

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
     */
    public record Timing(long intervalMs, long maxWaitMs) {
        public Timing {
            require(intervalMs >= 100, ConfigKey.CATCH_UP_INTERVAL_MS, Long.toString(intervalMs));
            require(maxWaitMs >= 0, ConfigKey.CATCH_UP_MAX_WAIT_MS, Long.toString(maxWaitMs));
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
