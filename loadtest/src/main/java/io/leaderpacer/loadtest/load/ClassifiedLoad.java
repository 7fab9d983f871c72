package io.leaderpacer.loadtest.load;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

/**
 * The steady produce load whose latency is the test's result: a fixed rate of fixed-size records, spread round-robin
 * over the load topic's partitions, with {@code acks=all}, an idempotent producer and {@code request.timeout.ms=30000}
 * (the seed's criterion is about such clients). Each send is stamped, when it is made, with the round's phase, its
 * partition's class and the restarted broker's role there, and its outcome goes to the round's {@link LatencyBook}.
 *
 * <p>Why one producer per group of partitions (the caller groups them by preferred leader): a produce request carries
 * every ready partition of one producer for one leader, and its response waits until all of them are acknowledged,
 * so with a single producer one partition with a slow in-sync follower holds back the sends of every other partition
 * in the same request, and the classes could not be measured apart. The first full run, with one producer, showed
 * exactly that: every class and role had the same multi-second P99. Why the producers live for the whole test, not
 * one round: their connections, metadata and JIT stay warm, so rounds differ by policy, not by which came first.
 * Between rounds nothing is recorded, but the load goes on.
 *
 * <p>Modelled on Kafka's own producer performance tool (a paced loop around {@code send} with a callback that records
 * the latency); failures are counted, never thrown, so the load goes on while brokers restart.
 */
public final class ClassifiedLoad implements AutoCloseable {

    /** How often the pacer wakes up; the rate is spread over these ticks. */
    private static final long TICK_MS = 5;

    /** Where sends are recorded now: a round's book and phase, or nothing between rounds. */
    private record Target(LatencyBook book, Phase phase) {
    }

    private final String topic;
    private final int partitions;
    private final double recordsPerTick;
    private final byte[] payload;
    private final SendClass[] classes;
    private final IntFunction<BrokerRole> roles;
    /** The producer of each partition (partitions of one group share one). */
    private final KafkaProducer<byte[], byte[]>[] producerOf;
    /** Every producer once. */
    private final java.util.List<KafkaProducer<byte[], byte[]>> producers = new java.util.ArrayList<>();
    private final ScheduledExecutorService pacer;
    private volatile Target target;
    private int nextPartition;
    private double owed;

    /**
     * @param clientProperties bootstrap servers and any security settings, applied before this class's own
     * @param classes          each partition's class, by partition number
     * @param groups           each partition's producer group, by partition number: one producer per group
     * @param roles            the restarted broker's current role in a partition, by partition number
     */
    public ClassifiedLoad(Map<String, Object> clientProperties, String topic, int recordsPerSecond, int recordBytes,
                          SendClass[] classes, int[] groups, IntFunction<BrokerRole> roles) {
        this.topic = topic;
        this.partitions = classes.length;
        this.recordsPerTick = recordsPerSecond * (TICK_MS / 1000.0);
        this.payload = new byte[recordBytes];
        this.classes = classes.clone();
        this.roles = roles;
        Map<String, Object> props = new HashMap<>(clientProperties);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        props.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "30000");
        props.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        @SuppressWarnings("unchecked")
        KafkaProducer<byte[], byte[]>[] of = (KafkaProducer<byte[], byte[]>[]) new KafkaProducer<?, ?>[partitions];
        Map<Integer, KafkaProducer<byte[], byte[]>> byGroup = new java.util.TreeMap<>();
        for (int p = 0; p < partitions; p++) {
            of[p] = byGroup.computeIfAbsent(groups[p], g -> {
                Map<String, Object> own = new HashMap<>(props);
                own.put(ProducerConfig.CLIENT_ID_CONFIG, "leader-pacer-loadtest-steady-" + g);
                return new KafkaProducer<>(own, new ByteArraySerializer(), new ByteArraySerializer());
            });
        }
        this.producerOf = of;
        this.producers.addAll(byGroup.values());
        this.pacer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "loadtest-steady-load");
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Primes every partition with one synchronous send (the first produce after creating many partitions can stall
     * until the delivery time-out otherwise), then starts the paced load.
     */
    public ClassifiedLoad start() throws Exception {
        for (int p = 0; p < partitions; p++) {
            producerOf[p].send(new ProducerRecord<>(topic, p, null, payload)).get(60, TimeUnit.SECONDS);
        }
        pacer.scheduleAtFixedRate(this::tick, 0, TICK_MS, TimeUnit.MILLISECONDS);
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
        producers.forEach(KafkaProducer::flush);
    }

    private void tick() {
        owed += recordsPerTick;
        while (owed >= 1) {
            owed -= 1;
            int partition = nextPartition;
            nextPartition = (nextPartition + 1) % partitions;
            Target t = target;
            SendClass sendClass = classes[partition];
            BrokerRole role = roles.apply(partition);
            long start = System.nanoTime();
            try {
                producerOf[partition].send(new ProducerRecord<>(topic, partition, null, payload), (md, error) -> {
                    if (t != null) {
                        t.book().record(t.phase(), sendClass, role, System.nanoTime() - start, error);
                    }
                });
            } catch (RuntimeException e) {
                // Buffer full or producer closing: count it as a failed send and keep the pace.
                if (t != null) {
                    t.book().record(t.phase(), sendClass, role, System.nanoTime() - start, e);
                }
            }
        }
    }

    @Override
    public void close() {
        pacer.shutdownNow();
        try {
            pacer.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        producers.forEach(p -> p.close(Duration.ofSeconds(5)));
    }
}
