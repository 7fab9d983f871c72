package io.leaderpacer.agent.reorder;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.leaderpacer.engine.cluster.PartitionId;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The state topic's wire format: key {@code <topic>-<partition>} (as Kafka tools print partitions), value a small
 * JSON object:
 *
 * <pre>{"version":1,"original":[2,0,1],"reordered":[0,1,2],"status":"REORDERED"}</pre>
 *
 * <p>Why JSON: operators read this topic with {@code kafka-console-consumer} when something looks wrong, and a
 * later version of the agent must be able to read records written by this one ({@code version} says which
 * layout). A record that cannot be read is reported, never guessed at: the original order it holds may be the
 * only copy.
 */
public final class OrderRecordCodec {

    /** Layout version written into every record; a reader refuses versions it does not know. */
    public static final int VERSION = 1;

    /** Thread-safe once configured; shared by all codecs. */
    private static final ObjectMapper JSON = new ObjectMapper();

    private OrderRecordCodec() {}

    /** The record key for a partition. */
    public static String key(PartitionId partition) {
        return partition.topic() + "-" + partition.partition();
    }

    /**
     * The partition a key names. Topic names may contain '-', the partition index never does, so the key splits at
     * its last '-'.
     *
     * @throws MalformedOrderRecordException when the key is not {@code <topic>-<non-negative integer>}
     */
    public static PartitionId partitionOf(String key) {
        int dash = key == null ? -1 : key.lastIndexOf('-');
        if (dash <= 0 || dash == key.length() - 1) {
            throw new MalformedOrderRecordException(key, "key is not <topic>-<partition>");
        }
        String index = key.substring(dash + 1);
        for (int i = 0; i < index.length(); i++) {
            if (!Character.isDigit(index.charAt(i))) {
                throw new MalformedOrderRecordException(
                        key, "key is not <topic>-<partition>: '" + index + "' is not a partition index");
            }
        }
        try {
            return new PartitionId(key.substring(0, dash), Integer.parseInt(index));
        } catch (NumberFormatException e) {
            throw new MalformedOrderRecordException(key, "partition index '" + index + "' is out of range");
        }
    }

    /** The record value for a state record. */
    public static String encode(OrderRecord record) {
        ObjectNode node = JSON.createObjectNode();
        node.put("version", VERSION);
        ArrayNode original = node.putArray("original");
        record.original().forEach(original::add);
        ArrayNode reordered = node.putArray("reordered");
        record.reordered().forEach(reordered::add);
        node.put("status", record.status().name());
        try {
            return JSON.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot encode " + record, e);
        }
    }

    /**
     * Reads a record.
     *
     * @throws MalformedOrderRecordException naming the key and what is wrong
     */
    public static OrderRecord decode(String key, String value) {
        PartitionId partition = partitionOf(key);
        if (value == null) {
            throw new MalformedOrderRecordException(key, "value is empty (a tombstone is not a record)");
        }
        JsonNode node;
        try {
            node = JSON.readTree(value);
        } catch (JsonProcessingException e) {
            throw new MalformedOrderRecordException(key, "value is not JSON: " + e.getOriginalMessage());
        }
        if (node == null || !node.isObject()) {
            throw new MalformedOrderRecordException(key, "value is not a JSON object");
        }
        JsonNode version = node.get("version");
        if (version == null || !version.isInt() || version.intValue() != VERSION) {
            throw new MalformedOrderRecordException(
                    key, "unsupported version " + version + " (this agent reads version " + VERSION + ")");
        }
        List<Integer> original = brokerList(key, node, "original");
        List<Integer> reordered = brokerList(key, node, "reordered");
        JsonNode statusNode = node.get("status");
        ReorderStatus status;
        try {
            status = ReorderStatus.valueOf(
                    statusNode == null ? "" : statusNode.asText().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new MalformedOrderRecordException(key, "unknown status " + statusNode);
        }
        try {
            return new OrderRecord(partition, original, reordered, status);
        } catch (IllegalArgumentException e) {
            throw new MalformedOrderRecordException(key, e.getMessage());
        }
    }

    private static List<Integer> brokerList(String key, JsonNode node, String field) {
        JsonNode array = node.get(field);
        if (array == null || !array.isArray()) {
            throw new MalformedOrderRecordException(key, "'" + field + "' is missing or not a list of broker ids");
        }
        List<Integer> out = new ArrayList<>(array.size());
        for (JsonNode id : array) {
            if (!id.isInt() || id.intValue() < 0) {
                throw new MalformedOrderRecordException(key, "'" + field + "' holds " + id + ", not a broker id");
            }
            out.add(id.intValue());
        }
        return out;
    }
}
