package io.leaderpacer.engine.schedule;

import io.leaderpacer.engine.config.PacerConfig;

import java.util.Objects;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;

/**
 * A periodic controller task's schedule, as in Kafka's {@code PeriodicTask}, with KIP-1358's
 * optional throttled reschedule delay.
 *
 * <p>Only {@link #electPreferred(PacerConfig)} sets a throttled delay; every other task
 * ({@code electUnclean}, {@code maybeFenceStaleBroker}, ...) keeps Kafka's immediate reschedule.
 *
 * @param name                 the task's name
 * @param periodMs             delay after a run that did not report more work
 * @param immediatePeriodMs    delay after a run that reported more work, when not throttled
 * @param throttledDelayMs     delay after a run that reported more work; empty = not throttled
 * @param gatedRecheckMs       delay after a run that left a broker gated, when shorter than the period; empty = the
 *                             period (KIP-1358's schedule)
 */
public record PeriodicTask(
        String name,
        long periodMs,
        long immediatePeriodMs,
        OptionalLong throttledDelayMs,
        OptionalLong gatedRecheckMs) {

    /** Kafka's immediate period for periodic tasks that report more work (10 ms). */
    public static final long IMMEDIATE_PERIOD_MS = 10;
    /** Kafka retries a periodic task that failed after 5 minutes. */
    public static final long FAILURE_RETRY_MS = 300_000;
    /** The name of the preferred-election task, as Kafka registers it. */
    public static final String ELECT_PREFERRED = "electPreferred";

    public PeriodicTask {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(throttledDelayMs, "throttledDelayMs");
        Objects.requireNonNull(gatedRecheckMs, "gatedRecheckMs");
        if (periodMs < 0 || immediatePeriodMs < 0) {
            throw new IllegalArgumentException("negative period for task " + name);
        }
    }

    /** A task that is not throttled: Kafka's behaviour for every task today. */
    public static PeriodicTask unthrottled(String name, long periodMs) {
        return new PeriodicTask(name, periodMs, IMMEDIATE_PERIOD_MS, OptionalLong.empty(), OptionalLong.empty());
    }

    /**
     * The preferred-election task under a configuration: the check interval as its period, and
     * {@code throttle.interval.ms} as the throttled delay when it is above 0, and, under wait-for-sync, the
     * re-check interval after a run that left a broker gated when it is above 0.
     */
    public static PeriodicTask electPreferred(PacerConfig config) {
        OptionalLong throttle =
                config.throttleIntervalMs() > 0 ? OptionalLong.of(config.throttleIntervalMs()) : OptionalLong.empty();
        // TimeUnit saturates at Long.MAX_VALUE: any check interval the configuration accepts is a
        // valid period, however large, instead of overflowing into a negative one.
        long periodMs = TimeUnit.SECONDS.toMillis(config.checkIntervalSeconds());
        OptionalLong recheck = config.waitForSync() && config.recheck().enabled()
                ? OptionalLong.of(config.recheck().intervalMs())
                : OptionalLong.empty();
        return new PeriodicTask(ELECT_PREFERRED, periodMs, IMMEDIATE_PERIOD_MS, throttle, recheck);
    }

    /** Delay before the next run, after a run that ended this way. */
    public long nextDelayMs(RunOutcome outcome) {
        switch (outcome) {
            case MORE_WORK:
                return throttledDelayMs.orElse(immediatePeriodMs);
            case FAILED:
                return FAILURE_RETRY_MS;
            case GATED:
                return Math.min(periodMs, gatedRecheckMs.orElse(periodMs));
            case DONE:
            default:
                return periodMs;
        }
    }
}
