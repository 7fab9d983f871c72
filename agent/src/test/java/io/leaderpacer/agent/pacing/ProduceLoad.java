package io.leaderpacer.agent.pacing;

import io.leaderpacer.embedded.EmbeddedKafkaCluster;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Test support: {@code acks=all} writes at a steady rate into some partitions of a topic, from a thread of its own,
 * until closed; as a real cluster's producers keep writing while a broker catches up.
 *
 * <p>Why: a catch-up under no produce load shows nothing of what Kafka's quota does with in-sync bytes (they count
 * towards the same quota as the catch-up, KAFKA-NOTES note 17). The rate is kept per tenth of a second, so that the
 * inflow is as even as a real producer fleet's, not bursts.
 */
final class ProduceLoad implements AutoCloseable {

    private static final int RECORD_BYTES = 1024;

    private final AtomicBoolean writing = new AtomicBoolean(true);
    private final AtomicLong failed = new AtomicLong();
    private final AtomicLong acked = new AtomicLong();
    /** The longest a send waited for its acknowledgement since the last {@link #resetSlowest()}, in milliseconds. */
    private final AtomicLong slowestMs = new AtomicLong();
    /** The sends not acknowledged yet: when each was made, by its sequence number. */
    private final Map<Long, Long> pending = new ConcurrentHashMap<>();

    private final AtomicLong sequence = new AtomicLong();

    private final Thread thread;

    private ProduceLoad(EmbeddedKafkaCluster cluster, String topic, List<Integer> partitions, long bytesPerSecond) {
        thread = new Thread(() -> write(cluster, topic, partitions, bytesPerSecond), "produce-load-" + topic);
        thread.setDaemon(true);
        thread.start();
    }

    /** Starts writing about {@code bytesPerSecond} into {@code partitions} of {@code topic}, spread evenly. */
    static ProduceLoad start(
            EmbeddedKafkaCluster cluster, String topic, List<Integer> partitions, long bytesPerSecond) {
        return new ProduceLoad(cluster, topic, partitions, bytesPerSecond);
    }

    private void write(EmbeddedKafkaCluster cluster, String topic, List<Integer> partitions, long bytesPerSecond) {
        Map<String, Object> p = new HashMap<>(cluster.adminClientProperties());
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        p.put(ProducerConfig.BATCH_SIZE_CONFIG, "65536");
        p.put(ProducerConfig.BUFFER_MEMORY_CONFIG, Long.toString(64L << 20));
        byte[] record = new byte[RECORD_BYTES];
        long perTenth = Math.max(1, bytesPerSecond / 10 / RECORD_BYTES);
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
            long next = System.nanoTime();
            int i = 0;
            while (writing.get()) {
                for (long n = 0; n < perTenth; n++) {
                    int partition = partitions.get(i++ % partitions.size());
                    long sentAt = System.nanoTime();
                    long seq = sequence.incrementAndGet();
                    pending.put(seq, sentAt);
                    producer.send(new ProducerRecord<>(topic, partition, null, record), (m, e) -> {
                        pending.remove(seq);
                        slowestMs.accumulateAndGet((System.nanoTime() - sentAt) / 1_000_000, Math::max);
                        if (e == null) {
                            acked.incrementAndGet();
                        } else {
                            failed.incrementAndGet();
                        }
                    });
                }
                next += 100_000_000L;
                long sleep = next - System.nanoTime();
                if (sleep > 0) {
                    Thread.sleep(sleep / 1_000_000, (int) (sleep % 1_000_000));
                }
            }
            producer.flush();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Sends that failed (a time-out, a refusal) so far. */
    long failed() {
        return failed.get();
    }

    /** No send has failed so far, and some were acknowledged. */
    void assertNoneFailed() {
        assertThat(failed.get())
                .as("sends that failed, of %d acknowledged", acked.get())
                .isZero();
        assertThat(acked.get()).as("sends acknowledged").isPositive();
    }

    /**
     * The longest a send waited for its acknowledgement since the last reset, in milliseconds, counting the sends still
     * waiting (a stall acknowledges nothing); then resets it.
     */
    long resetSlowest() {
        long now = System.nanoTime();
        long waiting = pending.values().stream()
                .mapToLong(at -> (now - at) / 1_000_000)
                .max()
                .orElse(0);
        return Math.max(waiting, slowestMs.getAndSet(0));
    }

    /** Sends acknowledged so far. */
    long acked() {
        return acked.get();
    }

    @Override
    public void close() {
        writing.set(false);
        try {
            thread.join(60_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
