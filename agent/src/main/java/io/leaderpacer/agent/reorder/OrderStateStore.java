package io.leaderpacer.agent.reorder;

import io.leaderpacer.agent.core.StateTopic;
import io.leaderpacer.agent.dynamic.CompactedTopic;
import io.leaderpacer.engine.cluster.PartitionId;

import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

/**
 * The write-ahead state of the deprioritized list: one {@link OrderRecord} per reordered partition, in a compacted
 * topic of the agent's own (default {@value #DEFAULT_TOPIC}).
 *
 * <p>Why a topic and not a local file: any agent instance, on any host, after any crash, must find the original
 * orders the previous one stored. A write returns only once the in-sync replicas have it.
 */
public final class OrderStateStore implements AutoCloseable {

    /** The state topic's default name. */
    public static final String DEFAULT_TOPIC = StateTopic.DEFAULT_NAME;

    /** The underlying key-value topic; owned (closed) by this store. */
    private final CompactedTopic topic;

    public OrderStateStore(CompactedTopic topic) {
        this.topic = Objects.requireNonNull(topic, "topic");
    }

    public String topicName() {
        return topic.name();
    }

    /** Every stored record, reading what was written since the last load. */
    public StoredOrders load() throws InterruptedException, TimeoutException {
        Map<PartitionId, OrderRecord> records = new HashMap<>();
        Map<String, String> unreadable = new HashMap<>();
        topic.read().forEach((key, value) -> {
            if (key.startsWith(StateTopic.LEDGER_KEY_PREFIX)) {
                // Catch-up pacing's ledger shares the topic under keys no topic name can have.
                return;
            }
            try {
                OrderRecord r = OrderRecordCodec.decode(key, value);
                records.put(r.partition(), r);
            } catch (MalformedOrderRecordException e) {
                unreadable.put(key, e.getMessage());
            }
        });
        return new StoredOrders(records, unreadable);
    }

    /**
     * Forgets what was read: the next {@link #load()} reads the whole topic again. An instance that becomes active
     * calls it, so its view of the deprioritization state comes from the topic alone, as its predecessor left it.
     */
    public void reset() {
        topic.reset();
    }

    /** Writes (replaces) records durably. */
    public void put(Collection<OrderRecord> records) throws InterruptedException, ExecutionException, TimeoutException {
        Map<String, String> entries = new LinkedHashMap<>();
        for (OrderRecord r : records) {
            entries.put(OrderRecordCodec.key(r.partition()), OrderRecordCodec.encode(r));
        }
        topic.write(entries);
    }

    /** Deletes records durably (tombstones). */
    public void remove(Collection<PartitionId> partitions)
            throws InterruptedException, ExecutionException, TimeoutException {
        Map<String, String> entries = new LinkedHashMap<>();
        for (PartitionId p : partitions) {
            entries.put(OrderRecordCodec.key(p), null);
        }
        topic.write(entries);
    }

    @Override
    public void close() {
        topic.close();
    }
}
