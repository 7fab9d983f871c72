package io.leaderpacer.agent.coordination;

import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The time rule behind every action of the active instance: an action needs a successful fenced confirmation
 * started less than {@code L} ago, and a new active instance acts no earlier than {@code L} after its
 * {@code initTransactions} (later still when its predecessor's throttle interval says so).
 *
 * <p>Why a class of its own: fencing stops a deposed instance's writes, not its Admin requests; this rule is what
 * orders the predecessor's last checked action before the successor's first, so it is kept in one place where it
 * can be read and reasoned about apart from the group and transaction handling. All times are on this process's
 * monotonic clock, never the wall clock, so clock steps cannot stretch {@code L}.
 *
 * <p>Not thread-safe: used only from the agent's run thread.
 */
final class ConfirmationLease {

    /** {@code L}: how long a confirmation allows actions, and how long a new active instance waits before acting. */
    private final long lifetimeNanos;
    /** Monotonic clock (System.nanoTime unless a test injects one). */
    private final LongSupplier nanoTime;
    /** When the last successful confirmation started (monotonic nanos). */
    private long confirmedAtNanos;
    /** Monotonic time before which this instance must not act (L after its initTransactions, and the throttle). */
    private long firstActionAtNanos;

    ConfirmationLease(long lifetimeNanos, LongSupplier nanoTime) {
        this.lifetimeNanos = lifetimeNanos;
        this.nanoTime = nanoTime;
    }

    /** The monotonic clock's reading now, for the start of a confirmation. */
    long now() {
        return nanoTime.getAsLong();
    }

    long lifetimeMs() {
        return TimeUnit.NANOSECONDS.toMillis(lifetimeNanos);
    }

    /** A confirmation that started at {@code startNanos} succeeded: actions are allowed for {@code L} from then. */
    void confirmedAt(long startNanos) {
        confirmedAtNanos = startNanos;
    }

    /** A confirmation failed: nothing may be sent until the next one succeeds. */
    void expire() {
        confirmedAtNanos = nanoTime.getAsLong() - lifetimeNanos;
    }

    /** Whether, at {@code nowNanos}, this instance is still waiting out its first-action delay after a takeover. */
    boolean tooEarly(long nowNanos) {
        return nowNanos - firstActionAtNanos < 0;
    }

    /** Whether, at {@code nowNanos}, the last confirmation no longer allows an action. */
    boolean expired(long nowNanos) {
        return nowNanos - confirmedAtNanos >= lifetimeNanos;
    }

    /**
     * After a takeover: the first action waits {@code L} from the producer's initialisation, and at least
     * {@code throttleWaitMs} from now (the predecessor's pacing).
     */
    void firstActionAfter(long initialisedNanos, long throttleWaitMs) {
        firstActionAtNanos = Math.max(
                initialisedNanos + lifetimeNanos, nanoTime.getAsLong() + TimeUnit.MILLISECONDS.toNanos(throttleWaitMs));
    }

    /** How long from now until the first action is allowed; 0 when it is. */
    long firstActionDelayMs() {
        // Rounded up: a delay of 0 must mean that tooEarly is false, or a caller that waits for 0 is refused.
        long remainingNanos = firstActionAtNanos - nanoTime.getAsLong();
        long nanosPerMs = TimeUnit.MILLISECONDS.toNanos(1);
        return remainingNanos <= 0 ? 0 : (remainingNanos + nanosPerMs - 1) / nanosPerMs;
    }
}
