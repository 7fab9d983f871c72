package io.leaderpacer.testbed;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A producer load of a fixed number of fixed-size records per second on one topic, spread round-robin over its
 * partitions, that reports the latency of every send.
 *
 * <p>Why: the point of pacing leader elections is what clients see while leadership moves, so the demo, the tests
 * and the load test need steady traffic whose per-send latency can be watched. It also fills a stopped broker's
 * partitions with data to catch up on. Modelled on Kafka's own producer performance tool: a paced loop around
 * {@code send} with a callback that records the latency. Before the steady rate starts, {@link #start()} sends one
 * record to every partition synchronously: the first produce after creating many partitions can otherwise stall
 * until the delivery time-out (idempotent producer, leader not yet known). Send failures are counted and reported to
 * the listener, never thrown: the load keeps running while brokers restart.
 *
 * <p>Why producers can be grouped ({@link Builder#producerGroups}): a produce request carries every ready partition
 * of one producer for one leader, and its response waits until all of them are acknowledged, so with one producer a
 * partition with a slow in-sync follower holds back the sends of every other partition in the same request. One
 * producer per group of partitions (e.g. per preferred leader) keeps such groups apart.
 */
public final class PacedLoad implements AutoCloseable {

    /** Receives one send's outcome, on the producer's I/O thread (or the pacing thread when the send threw): keep it quick. */
    @FunctionalInterface
    public interface SendListener {
        /**
         * @param latencyNanos time from {@code send} to acknowledgement or failure
         * @param error        null on success, else the failure
         */
        void onSend(long latencyNanos, Exception error);
    }

    /**
     * Told of each send as it is made, on the pacing thread, before the send starts its clock: what the send is
     * recorded as must be decided then (the partition's state may change before the send completes).
     */
    @FunctionalInterface
    public interface SendObserver {
        /** @return who hears this send's outcome, or null for nobody */
        SendListener sending(int partition);
    }

    /** Destination topic. */
    private final String topic;
    /** Target rate. */
    private final int recordsPerSecond;
    /** How often the pacer wakes up; the per-second rate is spread over these ticks. */
    private final long tickMs;
    /** Payload of every record (same bytes each time; the content is irrelevant). */
    private final byte[] payload;
    /** Who hears about each send; never null. */
    private final SendObserver observer;
    /** Each partition's producer group; null for one producer for every partition. */
    private final int[] groupOf;
    /** The producer of each group (the one producer under key 0 without groups). */
    private final Map<Integer, KafkaProducer<byte[], byte[]>> producers;
    /** Single thread that paces the sends. */
    private final ScheduledExecutorService pacer;
    /** The producer of each partition, set by {@link #start()}. */
    private List<KafkaProducer<byte[], byte[]>> producerOf;
    /** Next partition to write to. */
    private int nextPartition;
    /** Records owed by the pacing so far (fractional per tick, so kept as a running total). */
    private double owed;

    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong acknowledged = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();

    private PacedLoad(Builder b) {
        this.topic = b.topic;
        this.recordsPerSecond = b.recordsPerSecond;
        this.tickMs = b.tick.toMillis();
        this.payload = new byte[b.recordBytes];
        this.observer = b.observer;
        this.groupOf = b.groupOf == null ? null : b.groupOf.clone();
        Map<String, Object> props = new HashMap<>(b.clientProperties);
        b.producerProperties.forEach((key, value) -> {
            if (value != null) {
                props.put(key, value);
            }
        });
        this.producers = new TreeMap<>();
        if (groupOf == null) {
            producers.put(0, new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer()));
        } else {
            for (int group : groupOf) {
                producers.computeIfAbsent(group, g -> {
                    Map<String, Object> own = new HashMap<>(props);
                    if (b.clientIdPrefix != null) {
                        own.put(ProducerConfig.CLIENT_ID_CONFIG, b.clientIdPrefix + g);
                    }
                    return new KafkaProducer<>(own, new ByteArraySerializer(), new ByteArraySerializer());
                });
            }
        }
        String threadName = b.threadName;
        this.pacer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, threadName);
            t.setDaemon(true);
            return t;
        });
    }

    /** A load on {@code topic} of the cluster at {@code bootstrapServers}. */
    public static Builder builder(String bootstrapServers, String topic) {
        return builder(
                Map.of(
                        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        Objects.requireNonNull(bootstrapServers, "bootstrapServers")),
                topic);
    }

    /**
     * A load on {@code topic} with these client properties: the bootstrap servers and any security settings, applied
     * before this class's own producer settings.
     */
    public static Builder builder(Map<String, Object> clientProperties, String topic) {
        return new Builder(clientProperties, topic);
    }

    /**
     * Primes every partition with one synchronous send, then starts the steady rate.
     *
     * @throws IllegalStateException when a partition cannot be primed
     */
    public PacedLoad start() {
        int partitions = groupOf != null
                ? groupOf.length
                : producers.get(0).partitionsFor(topic).size();
        List<KafkaProducer<byte[], byte[]>> of = new ArrayList<>(partitions);
        for (int p = 0; p < partitions; p++) {
            of.add(producers.get(groupOf == null ? 0 : groupOf[p]));
        }
        producerOf = of;
        for (int p = 0; p < partitions; p++) {
            try {
                producerOf
                        .get(p)
                        .send(new ProducerRecord<>(topic, p, null, payload))
                        .get(60, TimeUnit.SECONDS);
            } catch (Exception e) {
                if (e instanceof InterruptedException) {
                    Thread.currentThread().interrupt();
                }
                throw new IllegalStateException("could not prime partition " + topic + "-" + p + ": " + e, e);
            }
        }
        pacer.scheduleAtFixedRate(this::tick, 0, tickMs, TimeUnit.MILLISECONDS);
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

    /**
     * Waits until every send made so far has completed, acknowledged or failed (at most the delivery time-out), so
     * that what the listeners were told is complete.
     */
    public void flush() {
        producers.values().forEach(KafkaProducer::flush);
    }

    /** Stops sending and closes the producers (waiting up to 5 s each for sends in flight). */
    @Override
    public void close() {
        pacer.shutdownNow();
        try {
            pacer.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        producers.values().forEach(p -> p.close(Duration.ofSeconds(5)));
    }

    private void tick() {
        owed += recordsPerSecond * (tickMs / 1000.0);
        while (owed >= 1) {
            owed -= 1;
            int partition = nextPartition;
            nextPartition = (nextPartition + 1) % producerOf.size();
            SendListener listener = observer.sending(partition);
            long start = System.nanoTime();
            try {
                producerOf.get(partition).send(new ProducerRecord<>(topic, partition, null, payload), (md, error) -> {
                    if (error == null) {
                        acknowledged.incrementAndGet();
                    } else {
                        failed.incrementAndGet();
                    }
                    if (listener != null) {
                        listener.onSend(System.nanoTime() - start, error);
                    }
                });
                sent.incrementAndGet();
            } catch (RuntimeException e) {
                // Producer closed or buffer exhausted: count it and keep the pace; never kill the ticking thread.
                failed.incrementAndGet();
                if (listener != null) {
                    listener.onSend(System.nanoTime() - start, e);
                }
            }
        }
    }

    /** Settings for a {@link PacedLoad}; every one has a default that suits tests. */
    public static final class Builder {
        private final Map<String, Object> clientProperties;
        private final String topic;
        /** Records per second (default 100). */
        private int recordsPerSecond = 100;
        /** Bytes per record value (default 1024). */
        private int recordBytes = 1024;
        /** Who hears about each send (default: nobody). */
        private SendObserver observer = partition -> null;
        /**
         * This class's producer settings, applied after the client properties; a null value removes the key. The
         * defaults: {@code acks=all} (what clients that care about durability see), a 5 ms linger, and time-outs
         * short enough that a send to a stopped broker fails within 30 s rather than hanging for Kafka's 2 minutes.
         */
        private final Map<String, Object> producerProperties = new LinkedHashMap<>(Map.of(
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.LINGER_MS_CONFIG, "5",
                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "30000",
                ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000"));
        /** Each partition's producer group; null for one producer. */
        private int[] groupOf;
        /** Prefix of each group's {@code client.id}; null for Kafka's own. */
        private String clientIdPrefix;
        /** Pacing tick (default 10 ms). */
        private Duration tick = Duration.ofMillis(10);
        /** Name of the pacing thread. */
        private String threadName;

        private Builder(Map<String, Object> clientProperties, String topic) {
            this.clientProperties = Map.copyOf(Objects.requireNonNull(clientProperties, "clientProperties"));
            this.topic = Objects.requireNonNull(topic, "topic");
            this.threadName = "steady-load-" + topic;
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

        /** Producer {@code acks}: "all" (the default), "1" or "0". */
        public Builder acks(String value) {
            return producerProperty(ProducerConfig.ACKS_CONFIG, Objects.requireNonNull(value, "acks"));
        }

        /** Who hears every send's outcome. */
        public Builder listener(SendListener value) {
            Objects.requireNonNull(value, "listener");
            return observer(partition -> value);
        }

        /** Who decides, as each send is made, who hears its outcome. */
        public Builder observer(SendObserver value) {
            this.observer = Objects.requireNonNull(value, "observer");
            return this;
        }

        /**
         * Any producer property; wins over the client properties and this class's defaults. A null value removes
         * this class's default for the key, so that the client properties' value or Kafka's own default applies.
         */
        public Builder producerProperty(String key, Object value) {
            producerProperties.put(Objects.requireNonNull(key, "key"), value);
            return this;
        }

        /**
         * One producer per group instead of one for all: {@code groupOfPartition[p]} is partition p's group, and the
         * array's length is the topic's partition count (otherwise learned from the cluster at start). Each group's
         * producer gets {@code client.id} = {@code clientIdPrefix} + group, unless the prefix is null.
         */
        public Builder producerGroups(int[] groupOfPartition, String clientIdPrefix) {
            if (groupOfPartition.length == 0) {
                throw new IllegalArgumentException("producer groups need at least one partition");
            }
            this.groupOf = groupOfPartition.clone();
            this.clientIdPrefix = clientIdPrefix;
            return this;
        }

        /** How often the pacer wakes up (default 10 ms); the per-second rate is spread over the ticks. */
        public Builder tick(Duration value) {
            if (value.toMillis() < 1) {
                throw new IllegalArgumentException("tick must be at least 1 ms, was " + value);
            }
            this.tick = value;
            return this;
        }

        /** Name of the pacing thread (default {@code steady-load-<topic>}). */
        public Builder threadName(String value) {
            this.threadName = Objects.requireNonNull(value, "threadName");
            return this;
        }

        /** An unstarted load; call {@link PacedLoad#start()}. */
        public PacedLoad build() {
            return new PacedLoad(this);
        }
    }
}
