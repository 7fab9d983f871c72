package io.leaderpacer.agent;

import org.apache.kafka.common.utils.Time;

import java.time.Duration;
import java.util.function.Supplier;

/**
 * The system's time plus the steps a test takes: a test that checks timing logic (a max-wait, a quiet period, when
 * a run is due) steps the agent's {@link Time} past the bound instead of sleeping through it, while Kafka's clients,
 * which keep their own time, still see real time pass for their requests.
 *
 * <p>Both readings move by each step, so the wall clock and the monotonic clock stay consistent with each other.
 * Thread-safe: the agent reads it on its own threads while the test steps it.
 */
public final class SteppedTime implements Time {

    private volatile long offsetNanos;

    /** Moves both readings forward by {@code d}. */
    public synchronized void step(Duration d) {
        if (d.isNegative()) {
            throw new IllegalArgumentException("time only moves forward: " + d);
        }
        offsetNanos += d.toNanos();
    }

    @Override
    public long milliseconds() {
        return System.currentTimeMillis() + offsetNanos / 1_000_000;
    }

    @Override
    public long nanoseconds() {
        return System.nanoTime() + offsetNanos;
    }

    /** Steps instead of sleeping: code under test that waits lets the test go on at once. */
    @Override
    public void sleep(long ms) {
        step(Duration.ofMillis(ms));
    }

    @Override
    public void waitObject(Object obj, Supplier<Boolean> condition, long deadlineMs) throws InterruptedException {
        Time.SYSTEM.waitObject(obj, condition, deadlineMs - offsetNanos / 1_000_000);
    }
}
