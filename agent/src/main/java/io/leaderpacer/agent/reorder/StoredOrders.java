package io.leaderpacer.agent.reorder;

import io.leaderpacer.engine.cluster.PartitionId;

import java.util.Collections;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The state topic as read at the start of a run.
 *
 * @param records    readable records by partition
 * @param unreadable record keys that could not be read, with the reason; never dropped automatically because
 *                   they may hold the only copy of an original order
 */
public record StoredOrders(Map<PartitionId, OrderRecord> records, Map<String, String> unreadable) {

    public StoredOrders {
        records = Collections.unmodifiableMap(new TreeMap<>(records));
        unreadable = Collections.unmodifiableMap(new TreeMap<>(unreadable));
    }

    public static StoredOrders empty() {
        return new StoredOrders(Map.of(), Map.of());
    }

    public boolean isEmpty() {
        return records.isEmpty() && unreadable.isEmpty();
    }

    /** Partitions named by an unreadable record's key (keys that do not even name a partition are left out). */
    public Set<PartitionId> unreadablePartitions() {
        Set<PartitionId> out = new HashSet<>();
        for (String key : unreadable.keySet()) {
            try {
                out.add(OrderRecordCodec.partitionOf(key));
            } catch (MalformedOrderRecordException e) {
                // a key that names no partition protects nothing
            }
        }
        return out;
    }
}
