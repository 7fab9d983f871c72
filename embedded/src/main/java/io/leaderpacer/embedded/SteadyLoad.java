package io.leaderpacer.embedded;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A producer that writes a fixed number of records per second of a fixed size to one topic, and reports the
 * latency of every send.
 *
 * <p>Why: the point of pacing leader elections is what clients see while leadership moves, so the demo and
 * the tests need steady traffic whose per-send latency can be watched. It also fills a stopped broker's
 * partitions with data to catch up on. Before the steady rate starts, {@link #start()} sends one record to
 * every partition synchronously: the first produce after creating many partitions can otherwise stall until
 * the delivery time-out (idempotent producer, leader not yet known).
 *
 * <p>Records go round-robin over the topic's partitions. Send failures are counted and reported to the
 * listener, never thrown: load keeps running while brokers restart.
 */
public final class SteadyLoad implements AutoCloseable {

    /** How often the sender wakes up; the per-second rate is spread over these ticks. */
    private static final long TICK_MS = 10;

    /** Receives every send's outcome, on the producer's I/O thread: keep it quick. */
    @FunctionalInterface
    public interface SendListener {
        /**
         * @param latencyNanos time from {@code send} to acknowledgement or failure
         * @param error        null on success, else the failure
         */
        void onSend(long latencyNanos, Exception error);
    }

    /** Destination topic. */
    private final String topic;
    /** Target rate. */
    private final int recordsPerSecond;
    /** Payload of every record (same bytes each time; the content is irrelevant). */
    private final byte[] payload;
    /** Who hears about each send; never null. */
    private final SendListener listener;
    /** The producer; closed by {@link #close()}. */
    private final KafkaProducer<byte[], byte[]> producer;
    /** Single thread that paces the sends. */
    private final ScheduledExecutorService pacer;
    /** Partition count, learned at start; sends are spread over them round-robin. */
    private int partitions;
    /** Next partition to write to. */
    private int nextPartition;
    /** Records owed by the pacing so far (fractional per tick, so kept as a running total). */
    private double owed;
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong acknowledged = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();

    private SteadyLoad(Builder b) {
        this.topic = b.topic;
        this.recordsPerSecond = b.recordsPerSecond;
        this.payload = new byte[b.recordBytes];
        this.listener = b.listener;
        Map<String, Object> props = new LinkedHashMap<>();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, b.bootstrapServers);
        props.put(ProducerConfig.ACKS_CONFIG, b.acks);
        props.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        props.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "30000");
        props.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000");
        props.putAll(b.producerProperties);
        this.producer = new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
        this.pacer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "steady-load-" + topic);
            t.setDaemon(true);
            return t;
        });
    }

    /** A load on {@code topic} of the cluster at {@code bootstrapServers}. */
    public static Builder builder(String bootstrapServers, String topic) {
        return new Builder(bootstrapServers, topic);
    }

    /**
     * Primes every partition with one synchronous send, then starts the steady rate.
     *
     * @throws EmbeddedKafkaException when the topic's partitions cannot be primed
     */
    public SteadyLoad start() {
        List<PartitionInfo> infos = producer.partitionsFor(topic);
        partitions = infos.size();
        for (PartitionInfo p : infos) {
            try {
                producer.send(new ProducerRecord<>(topic, p.partition(), null, payload)).get(60, TimeUnit.SECONDS);
            } catch (Exception e) {
                throw new EmbeddedKafkaException("could not prime partition " + topic + "-" + p.partition(), e);
            }
        }
        pacer.scheduleAtFixedRate(this::tick, 0, TICK_MS, TimeUnit.MILLISECONDS);
        return this;
    }

    /** Records handed to the producer so far (priming excluded). */
    public long sent() {
        return sent.get();
    }

    /** Records acknowledged so far (priming excluded). */
    public long acknowledged() {
        return acknowledged.get();
    }

    /** Records that failed so far. */
    public long failed() {
        return failed.get();
    }

    /** Stops sending and closes the producer (waiting up to 5 s for sends in flight). */
    @Override
    public void close() {
        pacer.shutdownNow();
        try {
            pacer.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        producer.close(Duration.ofSeconds(5));
    }

    private void tick() {
        owed += recordsPerSecond * (TICK_MS / 1000.0);
        while (owed >= 1) {
            owed -= 1;
            int partition = nextPartition;
            nextPartition = (nextPartition + 1) % partitions;
            long start = System.nanoTime();
            try {
                producer.send(new ProducerRecord<>(topic, partition, null, payload), (md, error) -> {
                    if (error == null) {
                        acknowledged.incrementAndGet();
                    } else {
                        failed.incrementAndGet();
                    }
                    listener.onSend(System.nanoTime() - start, error);
                });
                sent.incrementAndGet();
            } catch (RuntimeException e) {
                // Producer closed or buffer exhausted: count it and keep the pace; never kill the ticking thread.
                failed.incrementAndGet();
                listener.onSend(System.nanoTime() - start, e);
            }
        }
    }

    /** Settings for a {@link SteadyLoad}. */
    public static final class Builder {
        private final String bootstrapServers;
        private final String topic;
        /** Records per second (default 100). */
        private int recordsPerSecond = 100;
        /** Bytes per record value (default 1024). */
        private int recordBytes = 1024;
        /** Producer acks (default all: what clients that care about durability see). */
        private String acks = "all";
        /** Who hears about each send (default: nobody). */
        private SendListener listener = (latency, error) -> { };
        /** Extra producer properties, applied last. */
        private final Map<String, Object> producerProperties = new LinkedHashMap<>();

        private Builder(String bootstrapServers, String topic) {
            this.bootstrapServers = Objects.requireNonNull(bootstrapServers, "bootstrapServers");
            this.topic = Objects.requireNonNull(topic, "topic");
        }

        public Builder recordsPerSecond(int rate) {
            if (rate < 1) {
                throw new IllegalArgumentException("recordsPerSecond must be >= 1, was " + rate);
            }
            this.recordsPerSecond = rate;
            return this;
        }

        public Builder recordBytes(int bytes) {
            if (bytes < 0) {
                throw new IllegalArgumentException("recordBytes must be >= 0, was " + bytes);
            }
            this.recordBytes = bytes;
            return this;
        }

        /** Producer {@code acks}: "all", "1" or "0". */
        public Builder acks(String value) {
            this.acks = Objects.requireNonNull(value, "acks");
            return this;
        }

        public Builder listener(SendListener value) {
            this.listener = Objects.requireNonNull(value, "listener");
            return this;
        }

        /** Any producer property (wins over this class's defaults). */
        public Builder producerProperty(String key, Object value) {
            producerProperties.put(key, value);
            return this;
        }

        /** An unstarted load; call {@link SteadyLoad#start()}. */
        public SteadyLoad build() {
            return new SteadyLoad(this);
        }
    }
}
