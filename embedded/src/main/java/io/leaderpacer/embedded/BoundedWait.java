package io.leaderpacer.embedded;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * Polls a condition until it holds or a time limit passes.
 *
 * <p>Why: Kafka applies most changes asynchronously (registrations, topic creation, ACLs, SCRAM users travel
 * through the metadata log), so this package waits for their effect before returning, always with a bound and a
 * message that says what was awaited.
 */
final class BoundedWait {

    /** Pause between polls: short, the conditions are cheap in-JVM reads or one Admin call. */
    private static final long POLL_MS = 50;

    private BoundedWait() {}

    /**
     * Returns once {@code condition} holds.
     *
     * @throws EmbeddedKafkaException naming {@code what} when {@code limit} passes first or the thread is interrupted
     */
    static void until(String what, Duration limit, BooleanSupplier condition) {
        long deadline = System.nanoTime() + limit.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new EmbeddedKafkaException("timed out after " + limit.toSeconds() + " s waiting until " + what);
            }
            try {
                Thread.sleep(POLL_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new EmbeddedKafkaException("interrupted while waiting until " + what, e);
            }
        }
    }
}
