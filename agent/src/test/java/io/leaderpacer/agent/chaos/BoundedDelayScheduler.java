package io.leaderpacer.agent.chaos;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The agent's scheduler in the chaos test: one daemon thread, and no delay longer than a bound.
 *
 * <p>Why: after a failed run the agent waits five minutes, as Kafka's periodic task does. Under chaos a run fails
 * now and then for good reasons (a crashed broker's requests time out, the state topic's leader is gone), and a
 * test bounded to minutes cannot wait five of them. Every shorter delay (the check interval, the throttle interval,
 * the start-up back-off) passes unchanged, so the agent's pacing is the configured one; only the failure retry is
 * shortened, and how often that happened is counted for the report.
 */
final class BoundedDelayScheduler extends ScheduledThreadPoolExecutor {

    /** Longest delay the agent gets. */
    private final long maxDelayMs;
    /** Delays that were longer and were shortened. */
    private final AtomicLong shortened = new AtomicLong();

    BoundedDelayScheduler(long maxDelayMs) {
        this(maxDelayMs, "chaos-agent-runs");
    }

    /** A scheduler whose thread has this name (one per agent instance, so that log lines say which ran). */
    BoundedDelayScheduler(long maxDelayMs, String threadName) {
        super(1, r -> {
            Thread t = new Thread(r, threadName);
            t.setDaemon(true);
            return t;
        });
        this.maxDelayMs = maxDelayMs;
    }

    @Override
    public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
        long ms = unit.toMillis(delay);
        if (ms > maxDelayMs) {
            shortened.incrementAndGet();
            return super.schedule(command, maxDelayMs, TimeUnit.MILLISECONDS);
        }
        return super.schedule(command, delay, unit);
    }

    /** How many delays were longer than the bound (in practice: failure retries). */
    long shortenedDelays() {
        return shortened.get();
    }
}
