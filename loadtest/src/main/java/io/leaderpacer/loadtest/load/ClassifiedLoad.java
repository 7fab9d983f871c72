package io.leaderpacer.loadtest.load;

import io.leaderpacer.testbed.PacedLoad;
import org.apache.kafka.clients.producer.ProducerConfig;

import java.time.Duration;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * The steady produce load whose latency is the test's result: a {@link PacedLoad} of fixed-size records at a fixed
 * rate, spread round-robin over the load topic's partitions, with {@code acks=all}, an idempotent producer and
 * {@code request.timeout.ms=30000} (KIP-1358's criterion is about such clients). Each send is stamped, when it is
 * made, with the round's phase, its partition's class and the restarted broker's role there, and its outcome goes to
 * the round's {@link LatencyBook}.
 *
 * <p>Why one producer per group of partitions (the caller groups them by preferred leader): a produce request carries
 * every ready partition of one producer for one leader, and its response waits until all of them are acknowledged,
 * so with a single producer one partition with a slow in-sync follower holds back the sends of every other partition
 * in the same request, and the classes could not be measured apart. The first full run, with one producer, showed
 * exactly that: every class and role had the same multi-second P99. Why the producers live for the whole test, not
 * one round: their connections, metadata and JIT stay warm, so rounds differ by policy, not by which came first.
 * Between rounds nothing is recorded, but the load goes on.
 */
public final class ClassifiedLoad implements AutoCloseable {

    /** How often the pacer wakes up; the rate is spread over these ticks. */
    private static final Duration TICK = Duration.ofMillis(5);

    /** Where sends are recorded now: a round's book and phase, or nothing between rounds. */
    private record Target(LatencyBook book, Phase phase) {}

    private final SendClass[] classes;
    private final IntFunction<BrokerRole> roles;
    private final PacedLoad load;
    private volatile Target target;

    /**
     * @param clientProperties bootstrap servers and any security settings, applied before this class's own
     * @param classes          each partition's class, by partition number
     * @param groups           each partition's producer group, by partition number: one producer per group
     * @param roles            the restarted broker's current role in a partition, by partition number
     */
    public ClassifiedLoad(
            Map<String, Object> clientProperties,
            String topic,
            int recordsPerSecond,
            int recordBytes,
            SendClass[] classes,
            int[] groups,
            IntFunction<BrokerRole> roles) {
        this.classes = classes.clone();
        this.roles = roles;
        this.load = PacedLoad.builder(clientProperties, topic)
                .recordsPerSecond(recordsPerSecond)
                .recordBytes(recordBytes)
                .producerProperty(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true")
                .producerProperty(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "30000")
                // Kafka's own delivery time-out (or the client properties'), not the paced load's shorter one.
                .producerProperty(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, null)
                .producerGroups(groups, "leader-pacer-loadtest-steady-")
                .tick(TICK)
                .threadName("loadtest-steady-load")
                .observer(this::sending)
                .build();
    }

    /**
     * Primes every partition with one synchronous send (the first produce after creating many partitions can stall
     * until the delivery time-out otherwise), then starts the paced load.
     */
    public ClassifiedLoad start() {
        load.start();
        return this;
    }

    /** Records the sends made from now on into this book, in this phase. */
    public void recordInto(LatencyBook book, Phase phase) {
        target = new Target(book, phase);
    }

    /** Stops recording (sends in flight still complete into the book they were made for). */
    public void stopRecording() {
        target = null;
    }

    /**
     * Waits until every send made so far has completed, acknowledged or failed (at most the delivery time-out), so
     * that a round's book is complete before it is read.
     */
    public void awaitInFlight() {
        load.flush();
    }

    /** A send to this partition is being made: what it is recorded as is decided now. */
    private PacedLoad.SendListener sending(int partition) {
        Target t = target;
        SendClass sendClass = classes[partition];
        BrokerRole role = roles.apply(partition);
        if (t == null) {
            return null;
        }
        return (latencyNanos, error) -> t.book().record(t.phase(), sendClass, role, latencyNanos, error);
    }

    @Override
    public void close() {
        load.close();
    }
}
