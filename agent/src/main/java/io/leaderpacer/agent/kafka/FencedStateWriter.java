package io.leaderpacer.agent.kafka;

import io.leaderpacer.agent.config.ClientSettings;
import io.leaderpacer.agent.config.SecretRedactor;
import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.FencedInstanceIdException;
import org.apache.kafka.common.errors.IllegalGenerationException;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.UnknownMemberIdException;
import org.apache.kafka.common.serialization.StringSerializer;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The one transactional producer through which an active instance writes its state topic and confirms, before
 * acting, that it is still the active one.
 *
 * <p>Why transactions: every instance uses the same {@code transactional.id}, so the successor's
 * {@code initTransactions()} bumps the producer epoch and aborts the predecessor's open transaction; from then on
 * the predecessor's commits fail. Each transaction also commits the group's offset of the state topic's partition
 * with the member's group metadata, which the group coordinator accepts only from the current generation
 * (KIP-447): a member that lost the group is fenced even before its successor's producer starts. The offset's
 * value means nothing (the group never consumes); its metadata string carries the {@link HandoverSummary}.
 *
 * <p>Not thread-safe: used only from the agent's run thread.
 */
public final class FencedStateWriter implements AutoCloseable {

    /** The producer; its transactional id is shared by every instance of the group. */
    private final KafkaProducer<String, String> producer;
    /** The state topic's single partition, whose group offset each transaction commits. */
    private final TopicPartition membershipPartition;
    /** Bound on waiting for a record's acknowledgement inside a transaction. */
    private final Duration timeout;
    /** The writing instance's id, as a header on every record: an audit of who wrote what, readable by operators. */
    private final byte[] instanceId;

    /** Header naming the instance that wrote a state record. */
    public static final String INSTANCE_HEADER = "leader-pacer-instance";

    public FencedStateWriter(
            Map<String, ?> clientProperties,
            String transactionalId,
            TopicPartition membershipPartition,
            String instanceId,
            String clientId,
            Duration timeout) {
        this.instanceId = instanceId.getBytes(StandardCharsets.UTF_8);
        this.membershipPartition = Objects.requireNonNull(membershipPartition, "membershipPartition");
        this.timeout = Objects.requireNonNull(timeout, "timeout");
        Map<String, Object> props = ClientSettings.durableProducer(clientProperties, timeout);
        props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        props.put(ProducerConfig.CLIENT_ID_CONFIG, clientId);
        props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, timeout.toMillis());
        this.producer = new KafkaProducer<>(props, new StringSerializer(), new StringSerializer());
    }

    /** Fences every earlier producer of the same transactional id and aborts its open transaction. */
    public void initialize() {
        producer.initTransactions();
    }

    /**
     * One transaction: the entries (may be none; a {@code null} value is a tombstone), then the group offset with
     * the summary as metadata; returns once committed.
     *
     * @throws ExecutionException when a record was refused; the transaction was aborted or is left to be
     */
    public void commit(String topic, Map<String, String> entries, ConsumerGroupMetadata group, String summaryJson)
            throws InterruptedException, ExecutionException, TimeoutException {
        producer.beginTransaction();
        List<Future<RecordMetadata>> sent = new ArrayList<>(entries.size());
        entries.forEach((k, v) -> {
            ProducerRecord<String, String> r = new ProducerRecord<>(topic, Objects.requireNonNull(k, "key"), v);
            r.headers().add(INSTANCE_HEADER, instanceId);
            sent.add(producer.send(r));
        });
        producer.sendOffsetsToTransaction(Map.of(membershipPartition, new OffsetAndMetadata(0, summaryJson)), group);
        producer.commitTransaction();
        for (Future<RecordMetadata> f : sent) {
            f.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    /** Aborts an open transaction after a failure that is not fencing; false if the producer is unusable. */
    public boolean abortQuietly() {
        try {
            producer.abortTransaction();
            return true;
        } catch (RuntimeException e) {
            return false;
        }
    }

    /**
     * Whether a failure means another instance took over or this member left the group's current generation:
     * never retried, the instance is deposed.
     */
    public static boolean isFencing(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof ProducerFencedException
                    || t instanceof InvalidProducerEpochException
                    || t instanceof FencedInstanceIdException
                    || t instanceof CommitFailedException
                    || t instanceof UnknownMemberIdException
                    || t instanceof IllegalGenerationException) {
                return true;
            }
        }
        return false;
    }

    /** How a failure is named in log lines: its root cause's message (the wrappers add nothing). */
    public static String rootCause(Throwable error) {
        Throwable t = error;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return SecretRedactor.none().describe(t);
    }

    @Override
    public void close() {
        producer.close(Duration.ZERO);
    }
}
