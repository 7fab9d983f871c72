package io.leaderpacer.agent.kafka;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The Kafka side of the pacing canary: its topic (one partition per broker, replicas staggered so that every broker
 * follows some) and the {@code acks=all} producer that writes to it. What the sends measure is the canary's
 * business ({@code pacing.Canary}); this only creates, describes and sends.
 *
 * <p>The producer is opened and closed apart from the topic: a topic just created and not yet on every broker fails
 * the describe, and the canary opens the producer only once the topic has been read.
 */
public final class CanaryTopic implements AutoCloseable {

    private final Admin admin;
    private final Map<String, Object> clientProperties;
    private final String topic;
    private final Duration timeout;

    private KafkaProducer<byte[], byte[]> producer;

    /**
     * @param admin            the agent's Admin client (not closed here)
     * @param clientProperties the agent's client settings (security, bootstrap), for the producer
     * @param topic            the canary topic's name
     * @param timeout          bound on each Admin call
     */
    public CanaryTopic(Admin admin, Map<String, ?> clientProperties, String topic, Duration timeout) {
        this.admin = admin;
        this.clientProperties = Map.copyOf(new HashMap<String, Object>(clientProperties));
        this.topic = topic;
        this.timeout = timeout;
    }

    /** Creates the topic unless it exists: a partition per broker, replication factor up to 3, a minute kept. */
    public void ensure(List<Integer> brokers) throws InterruptedException, ExecutionException, TimeoutException {
        Map<Integer, List<Integer>> assignment = new TreeMap<>();
        int rf = Math.min(3, brokers.size());
        for (int p = 0; p < brokers.size(); p++) {
            List<Integer> replicas = new ArrayList<>();
            for (int r = 0; r < rf; r++) {
                replicas.add(brokers.get((p + r) % brokers.size()));
            }
            assignment.put(p, replicas);
        }
        try {
            admin.createTopics(List.of(new NewTopic(topic, assignment)
                            .configs(Map.of("retention.ms", "60000", "segment.bytes", Integer.toString(1 << 20)))))
                    .all()
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw e;
            }
        }
    }

    /** The topic's partitions now, by number: leader, replicas and ISR. */
    public Map<Integer, TopicPartitionInfo> describe()
            throws InterruptedException, ExecutionException, TimeoutException {
        Map<Integer, TopicPartitionInfo> out = new TreeMap<>();
        admin.describeTopics(List.of(topic))
                .allTopicNames()
                .get(timeout.toMillis(), TimeUnit.MILLISECONDS)
                .get(topic)
                .partitions()
                .forEach(p -> out.put(p.partition(), p));
        return out;
    }

    /** Opens the producer unless it is open: {@code acks=all}, no batching delay, no idempotence, a 30-s request time-out. */
    public synchronized void openProducer() {
        if (producer != null) {
            return;
        }
        Map<String, Object> props = new HashMap<>(clientProperties);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.LINGER_MS_CONFIG, "0");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "false");
        props.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "30000");
        props.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "60000");
        props.put(ProducerConfig.CLIENT_ID_CONFIG, "leader-pacer-canary");
        producer = new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
    }

    /**
     * Sends one record to a partition; {@code acknowledged} runs on the producer's I/O thread once every in-sync
     * replica has it. False when nothing was sent: the producer is closed, or its buffer is full while a broker stalls.
     */
    public boolean send(int partition, byte[] value, Runnable acknowledged) {
        KafkaProducer<byte[], byte[]> p;
        synchronized (this) {
            p = producer;
        }
        if (p == null) {
            return false;
        }
        try {
            p.send(new ProducerRecord<>(topic, partition, null, value), (md, error) -> {
                if (error == null) {
                    acknowledged.run();
                }
            });
            return true;
        } catch (RuntimeException e) {
            return false;
        }
    }

    /**
     * Closes the producer, waiting at most 5 s for its last sends, outside this object's monitor: its I/O thread runs
     * the acknowledgements, and close waits for that thread. The topic stays; {@link #openProducer()} opens anew.
     */
    @Override
    public void close() {
        KafkaProducer<byte[], byte[]> p;
        synchronized (this) {
            p = producer;
            producer = null;
        }
        if (p != null) {
            p.close(Duration.ofSeconds(5));
        }
    }
}
