package io.leaderpacer.agent.dynamic;

import io.leaderpacer.agent.config.ClientSettings;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.common.utils.Timer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A compacted topic of the agent's own used as a durable key-value map: the latest value per key wins, a
 * {@code null} value (tombstone) deletes the key.
 *
 * <p>Why a topic: it is the one cluster-wide, replicated store every agent instance can reach with the client
 * settings it already has (TLS, SASL), and compaction keeps it as small as the live keys. Created on first write
 * with {@code cleanup.policy=compact}, replication factor {@code min(3, brokers)} and {@code min.insync.replicas}
 * {@code min(2, RF)}; written by an idempotent producer with {@code acks=all}, and every write waits for its
 * acknowledgement, so a returned write is durable.
 *
 * <p>Reading never creates the topic: a missing topic is an empty map. The reader assigns every partition (no
 * consumer group: each instance reads everything), reads to the end offsets taken at the start of the call, and
 * keeps its position and the map between calls, so a later read fetches only what was written since. If the
 * position fell behind the log start (a compaction of tombstones it had not seen), it reads again from the start.
 *
 * <p>Writes go through the idempotent producer described above unless a {@link Writer} is given: a coordinated
 * agent passes its fenced transactional writer for the state topic, so that a deposed instance cannot write it.
 *
 * <p>Not thread-safe by design: one instance belongs to one agent loop or one command; methods are synchronized
 * only so that misuse cannot corrupt the map.
 */
public final class CompactedTopic implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(CompactedTopic.class);

    /** Creates the topic and checks broker counts; owned by the caller, never closed here. */
    private final Admin admin;
    /** The topic's name. */
    private final String name;
    /** Client settings (bootstrap servers, security) for the producer and consumer created on demand. */
    private final Map<String, Object> clientProperties;
    /** Bound on every blocking call, so an unreachable cluster fails a run instead of hanging it. */
    private final Duration timeout;
    /** Measures a read's deadline, so that a test can step it. */
    private final Time time;

    /**
     * Another way to write the topic (the coordinated agent's fenced transactions), or null for this object's own
     * idempotent producer. Reads are {@code read_committed} either way, so aborted writes are never seen.
     */
    private final Writer writer;
    /** Whether {@link #ensureExists()} ran for a write through {@link #writer}. */
    private boolean ensured;

    /** Created on the first write; closed with this object. */
    private KafkaProducer<String, String> producer;
    /** Created on the first read of an existing topic; keeps its position between reads. */
    private KafkaConsumer<String, String> consumer;
    /** Partitions the consumer is assigned. */
    private List<TopicPartition> assigned = List.of();
    /** Latest value per key as of the last read (tombstoned keys removed). */
    private final Map<String, String> latest = new LinkedHashMap<>();

    /** Writes a batch of entries to a topic and returns once they are durable; used instead of the idempotent producer. */
    @FunctionalInterface
    public interface Writer {
        /**
         * @param topic   the topic's name
         * @param entries key to value, {@code null} = tombstone, in write order
         */
        void write(String topic, Map<String, String> entries)
                throws InterruptedException, ExecutionException, TimeoutException;
    }

    public CompactedTopic(Admin admin, Map<String, ?> clientProperties, String name, Duration timeout) {
        this(admin, clientProperties, name, timeout, null);
    }

    /**
     * A topic written through {@code writer} (which must write durably and in order) rather than an idempotent
     * producer of its own.
     */
    public CompactedTopic(Admin admin, Map<String, ?> clientProperties, String name, Duration timeout, Writer writer) {
        this(admin, clientProperties, name, timeout, writer, Time.SYSTEM);
    }

    /** As the constructor above, its deadlines measured on {@code time} (the agent's one injected time). */
    public CompactedTopic(
            Admin admin, Map<String, ?> clientProperties, String name, Duration timeout, Writer writer, Time time) {
        this.writer = writer;
        this.time = Objects.requireNonNull(time, "time");
        this.admin = Objects.requireNonNull(admin, "admin");
        this.name = Objects.requireNonNull(name, "name");
        this.clientProperties = Map.copyOf(Objects.requireNonNull(clientProperties, "clientProperties"));
        this.timeout = Objects.requireNonNull(timeout, "timeout");
        if (name.isBlank()) {
            throw new IllegalArgumentException("topic name must not be blank");
        }
    }

    public String name() {
        return name;
    }

    /**
     * The latest value of every live key, reading what was written since the last call.
     *
     * @return an unmodifiable copy; empty when the topic does not exist
     */
    public synchronized Map<String, String> read() throws InterruptedException, TimeoutException {
        Timer deadline = time.timer(timeout);
        if (consumer == null || assigned.isEmpty()) {
            KafkaConsumer<String, String> c = consumer != null ? consumer : newConsumer();
            consumer = c;
            List<PartitionInfo> partitions = c.partitionsFor(name, timeout);
            if (partitions == null || partitions.isEmpty()) {
                return Map.of();
            }
            List<TopicPartition> tps = new ArrayList<>();
            partitions.forEach(pi -> tps.add(new TopicPartition(pi.topic(), pi.partition())));
            c.assign(tps);
            c.seekToBeginning(tps);
            assigned = List.copyOf(tps);
            latest.clear();
        }
        Map<TopicPartition, Long> start = consumer.beginningOffsets(assigned, timeout);
        for (TopicPartition tp : assigned) {
            if (consumer.position(tp, timeout) < start.get(tp)) {
                LOG.info("Topic {} was compacted past this reader's position; reading it again from the start", name);
                consumer.seekToBeginning(assigned);
                latest.clear();
                break;
            }
        }
        Map<TopicPartition, Long> end = consumer.endOffsets(assigned, timeout);
        while (!reachedEnd(end)) {
            deadline.update();
            if (deadline.isExpired()) {
                throw new TimeoutException(
                        "reading topic " + name + " to its end took more than " + timeout.toMillis() + " ms");
            }
            for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(100))) {
                if (r.key() == null) {
                    continue;
                }
                if (r.value() == null) {
                    latest.remove(r.key());
                } else {
                    latest.put(r.key(), r.value());
                }
            }
        }
        return Collections.unmodifiableMap(new LinkedHashMap<>(latest));
    }

    /**
     * Forgets what was read: the next {@link #read()} reads the topic again from its start. Used when an instance
     * becomes active, so that its view of the state is rebuilt from the topic alone.
     */
    public synchronized void reset() {
        assigned = List.of();
        latest.clear();
    }

    /**
     * Writes every entry (a {@code null} value deletes the key) and waits until all are acknowledged by the
     * in-sync replicas. Creates the topic first if it does not exist. The entries go to the topic in one flush, in
     * map order.
     *
     * @throws ExecutionException when a write failed; its message names the keys that may not be written
     */
    public synchronized void write(Map<String, String> entries)
            throws InterruptedException, ExecutionException, TimeoutException {
        if (entries.isEmpty()) {
            return;
        }
        if (writer != null) {
            if (!ensured) {
                ensureExists();
                ensured = true;
            }
            writer.write(name, entries);
            return;
        }
        if (producer == null) {
            ensureExists();
            producer = newProducer();
        }
        Map<String, Future<RecordMetadata>> sent = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : entries.entrySet()) {
            sent.put(
                    e.getKey(),
                    producer.send(new ProducerRecord<>(name, Objects.requireNonNull(e.getKey(), "key"), e.getValue())));
        }
        producer.flush();
        List<String> failed = new ArrayList<>();
        Throwable firstCause = null;
        for (Map.Entry<String, Future<RecordMetadata>> e : sent.entrySet()) {
            try {
                e.getValue().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            } catch (ExecutionException | TimeoutException ex) {
                failed.add(e.getKey());
                firstCause = firstCause == null ? ex : firstCause;
            }
        }
        if (!failed.isEmpty()) {
            throw new ExecutionException(
                    "writing to topic " + name + " failed for keys " + failed + ": "
                            + (firstCause.getCause() != null ? firstCause.getCause() : firstCause),
                    firstCause);
        }
    }

    /**
     * Creates the topic with safe settings if it does not exist, and refuses it if it exists with settings that
     * could lose what is written (see {@link StateTopicSafety}); called before the first write.
     *
     * @throws ExecutionException caused by {@link UnsafeTopicException} (its message names every problem and its
     *                            fix) when the topic is unsafe; nothing has been written then
     */
    public void ensureExists() throws InterruptedException, ExecutionException, TimeoutException {
        try {
            StateTopicSafety.ensureSafe(admin, name, timeout, time);
        } catch (UnsafeTopicException e) {
            throw new ExecutionException(e.getMessage(), e);
        }
    }

    private boolean reachedEnd(Map<TopicPartition, Long> end) {
        for (TopicPartition tp : assigned) {
            if (consumer.position(tp, timeout) < end.get(tp)) {
                return false;
            }
        }
        return true;
    }

    private KafkaConsumer<String, String> newConsumer() {
        Map<String, Object> props = ClientSettings.forClient(clientProperties, ConsumerConfig.configNames());
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.remove(ConsumerConfig.GROUP_ID_CONFIG);
        props.putIfAbsent(ConsumerConfig.CLIENT_ID_CONFIG, "leader-pacer-reader-" + name);
        props.putIfAbsent(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
        return new KafkaConsumer<>(props, new StringDeserializer(), new StringDeserializer());
    }

    private KafkaProducer<String, String> newProducer() {
        Map<String, Object> props = ClientSettings.durableProducer(clientProperties, timeout);
        props.putIfAbsent(ProducerConfig.CLIENT_ID_CONFIG, "leader-pacer-writer-" + name);
        return new KafkaProducer<>(props, new StringSerializer(), new StringSerializer());
    }

    @Override
    public synchronized void close() {
        if (producer != null) {
            producer.close(timeout);
            producer = null;
        }
        if (consumer != null) {
            consumer.close(CloseOptions.timeout(timeout));
            consumer = null;
        }
    }
}
