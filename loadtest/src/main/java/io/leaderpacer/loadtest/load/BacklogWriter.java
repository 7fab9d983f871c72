package io.leaderpacer.loadtest.load;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Writes, while the broker is down, the data it must fetch back when it returns: a number of bytes spread over the
 * catch-up topic's partitions with log-normal weights drawn from the run's seed.
 *
 * <p>Why skewed: partitions differ in traffic, so after a real restart the quiet ones rejoin their ISRs in the first
 * seconds and the busy ones much later, while the broker is still saturated by them. That gap is what a gate acts on;
 * with an even spread every partition would rejoin at nearly the same moment and there would be nothing to pace.
 */
public final class BacklogWriter {

    /** Size of one backlog record: large, so that writing a GiB is few sends. */
    static final int RECORD_BYTES = 16 * 1024;

    private BacklogWriter() {}

    /**
     * Records per partition: about {@code totalBytes} in all, partition p's share proportional to
     * {@code exp(sigma * z_p)} with {@code z_p} standard normal from {@code seed}; every partition gets at least one.
     */
    public static int[] recordsPerPartition(int partitions, long totalBytes, double sigma, long seed) {
        Random random = new Random(seed);
        double[] weights = new double[partitions];
        double sum = 0;
        for (int p = 0; p < partitions; p++) {
            weights[p] = Math.exp(sigma * random.nextGaussian());
            sum += weights[p];
        }
        long totalRecords = Math.max(partitions, totalBytes / RECORD_BYTES);
        int[] counts = new int[partitions];
        for (int p = 0; p < partitions; p++) {
            counts[p] = (int) Math.max(1, Math.round(totalRecords * weights[p] / sum));
        }
        return counts;
    }

    /**
     * Writes the backlog as fast as the cluster takes it ({@code acks=all}: the brokers that are up) and returns the
     * bytes acknowledged.
     *
     * @throws BacklogException when a record fails or the whole does not complete within {@code limit}
     */
    public static long write(
            Map<String, Object> clientProperties, String topic, int[] recordsPerPartition, Duration limit) {
        Map<String, Object> props = new HashMap<>(clientProperties);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.LINGER_MS_CONFIG, "10");
        props.put(ProducerConfig.BATCH_SIZE_CONFIG, Integer.toString(256 * 1024));
        props.put(ProducerConfig.BUFFER_MEMORY_CONFIG, Long.toString(64L * 1024 * 1024));
        props.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "120000");
        props.put(ProducerConfig.CLIENT_ID_CONFIG, "leader-pacer-loadtest-backlog");
        byte[] payload = new byte[RECORD_BYTES];
        new Random(1).nextBytes(payload);
        AtomicLong acked = new AtomicLong();
        AtomicReference<Exception> failure = new AtomicReference<>();
        long deadline = System.nanoTime() + limit.toNanos();
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
            int[] left = recordsPerPartition.clone();
            boolean more = true;
            // Interleave partitions so that all of them fill at once, as steady traffic would have filled them.
            while (more && failure.get() == null) {
                more = false;
                for (int p = 0; p < left.length; p++) {
                    if (left[p] == 0) {
                        continue;
                    }
                    int n = Math.min(left[p], 8);
                    left[p] -= n;
                    more |= left[p] > 0;
                    for (int i = 0; i < n; i++) {
                        producer.send(new ProducerRecord<>(topic, p, null, payload), (md, error) -> {
                            if (error == null) {
                                acked.addAndGet(RECORD_BYTES);
                            } else {
                                failure.compareAndSet(null, error);
                            }
                        });
                    }
                }
                if (System.nanoTime() > deadline) {
                    throw new BacklogException(
                            "the backlog was not written within " + limit.toSeconds() + " s ("
                                    + acked.get() / (1024 * 1024) + " MiB acknowledged)",
                            null);
                }
            }
            producer.flush();
        }
        if (failure.get() != null) {
            throw new BacklogException(
                    "writing the backlog to " + topic + " failed: "
                            + failure.get().getMessage(),
                    failure.get());
        }
        return acked.get();
    }

    /** The backlog could not be written. */
    public static final class BacklogException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        BacklogException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
