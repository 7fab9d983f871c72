package io.leaderpacer.cli.demo;

import io.leaderpacer.embedded.EmbeddedKafkaException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * The data a stopped broker must fetch back when it restarts, written while it is down.
 *
 * <p>Skewed on purpose: partition weights grow linearly with the partition's rank among its
 * preferred broker's partitions, so the restarted broker's small partitions rejoin their ISRs in
 * the first seconds and its large ones only at the end, as after a real restart where partitions
 * differ in traffic. With an even spread they would all rejoin at nearly the same moment, and
 * there would be nothing to pace.
 */
final class CatchUpBacklog {

    /** Size of one backlog record: large, so the backlog is few sends. */
    static final int RECORD_BYTES = 4096;

    private CatchUpBacklog() {
    }

    /**
     * Records to write per partition so that the total is about {@code totalBytes} and partition
     * {@code p}'s share is proportional to {@code 1 + p / brokers}; every partition gets at least one.
     */
    static int[] recordsPerPartition(int partitions, int brokers, long totalBytes) {
        long totalRecords = Math.max(partitions, totalBytes / RECORD_BYTES);
        double weightSum = 0;
        for (int p = 0; p < partitions; p++) {
            weightSum += weight(p, brokers);
        }
        int[] counts = new int[partitions];
        for (int p = 0; p < partitions; p++) {
            counts[p] = Math.max(1, (int) Math.round(totalRecords * weight(p, brokers) / weightSum));
        }
        return counts;
    }

    private static double weight(int partition, int brokers) {
        return 1 + partition / brokers;
    }

    /**
     * Writes the backlog as fast as the cluster takes it and returns once every record is
     * acknowledged by the brokers that are up.
     */
    static void write(String bootstrapServers, DemoSettings settings, Duration limit) {
        int[] counts = recordsPerPartition(settings.partitions(), settings.brokers(), settings.backlogBytes());
        byte[] payload = new byte[RECORD_BYTES];
        // Random bytes: what a real log holds, and nothing a compressor could shrink.
        new Random(42).nextBytes(payload);
        Map<String, Object> props = new LinkedHashMap<>();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(ProducerConfig.ACKS_CONFIG, "1");
        props.put(ProducerConfig.LINGER_MS_CONFIG, "20");
        props.put(ProducerConfig.BATCH_SIZE_CONFIG, Integer.toString(256 * 1024));
        props.put(ProducerConfig.CLIENT_ID_CONFIG, "pacer-demo-backlog");
        long deadline = System.nanoTime() + limit.toNanos();
        try (KafkaProducer<byte[], byte[]> producer =
                     new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
            int max = 0;
            for (int c : counts) {
                max = Math.max(max, c);
            }
            List<Future<?>> inFlight = new ArrayList<>();
            for (int round = 0; round < max; round++) {
                for (int p = 0; p < counts.length; p++) {
                    if (round < counts[p]) {
                        inFlight.add(producer.send(new ProducerRecord<>(settings.topic(), p, null, payload)));
                    }
                }
                if (inFlight.size() >= 2000) {
                    awaitAll(inFlight, deadline);
                }
            }
            awaitAll(inFlight, deadline);
        }
    }

    private static void awaitAll(List<Future<?>> inFlight, long deadline) {
        for (Future<?> f : inFlight) {
            try {
                f.get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (Exception e) {
                throw new EmbeddedKafkaException("could not write the catch-up backlog: " + e, e);
            }
        }
        inFlight.clear();
    }
}
