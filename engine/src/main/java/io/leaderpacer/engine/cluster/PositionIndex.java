package io.leaderpacer.engine.cluster;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Where each partition sits in a {@link ClusterState}: per topic, an array of positions by partition index.
 *
 * <p>Why not a {@code HashMap<PartitionId, Integer>}: at a million partitions that map was most of the state's
 * memory (a node, a boxed position and a table slot per partition, about 60 bytes) and a large share of a
 * rebuild's time (hashing each id). Partitions of one topic usually come together, so the topic is looked up
 * once per run of equal topics, and a partition costs four bytes. A partition index far beyond its topic's
 * others (Kafka numbers partitions densely from 0, but an id may name any index) goes to a plain map instead, so
 * that no array is sized by one stray index.
 */
final class PositionIndex {

    private static final int ABSENT = -1;

    /** Per topic, the position of each partition index, {@link #ABSENT} for none. */
    private final Map<String, int[]> byTopic = new HashMap<>();
    /** The topic looked up last and its array, the common case when partitions come topic by topic. */
    private String lastTopic;

    private int[] lastPositions;
    private int size;
    /** Partitions whose index is too far beyond their topic's array to grow it. */
    private final Map<PartitionId, Integer> sparse = new HashMap<>();

    /** The position of the partition, or -1. */
    int get(PartitionId id) {
        int[] positions = positions(id.topic());
        int p = id.partition();
        if (positions != null && p < positions.length && positions[p] != ABSENT) {
            return positions[p];
        }
        Integer pos = sparse.isEmpty() ? null : sparse.get(id);
        return pos == null ? ABSENT : pos;
    }

    /** Records the position of a partition not yet indexed. */
    void put(PartitionId id, int pos) {
        int[] positions = positions(id.topic());
        int p = id.partition();
        if (!sparse.isEmpty() && sparse.containsKey(id)) {
            sparse.put(id, pos);
            return;
        }
        if (positions == null || p >= positions.length) {
            int old = positions == null ? 0 : positions.length;
            if (p > Math.max(1024, old * 4)) {
                sparse.put(id, pos);
                size++;
                return;
            }
            int[] grown = positions == null
                    ? new int[Math.max(p + 1, 8)]
                    : Arrays.copyOf(positions, Math.max(p + 1, old * 2));
            Arrays.fill(grown, old, grown.length, ABSENT);
            byTopic.put(id.topic(), grown);
            lastTopic = id.topic();
            lastPositions = grown;
            positions = grown;
        }
        if (positions[p] == ABSENT) {
            size++;
        }
        positions[p] = pos;
    }

    /** Forgets a partition; returns its position, or -1 when it was not indexed. */
    int remove(PartitionId id) {
        int[] positions = positions(id.topic());
        int p = id.partition();
        if (positions != null && p < positions.length && positions[p] != ABSENT) {
            int pos = positions[p];
            positions[p] = ABSENT;
            size--;
            return pos;
        }
        Integer pos = sparse.isEmpty() ? null : sparse.remove(id);
        if (pos == null) {
            return ABSENT;
        }
        size--;
        return pos;
    }

    /** How many partitions are indexed. */
    int size() {
        return size;
    }

    private int[] positions(String topic) {
        if (lastPositions != null && (lastTopic == topic || lastTopic.equals(topic))) {
            return lastPositions;
        }
        int[] found = byTopic.get(topic);
        if (found != null) {
            lastTopic = topic;
            lastPositions = found;
        }
        return found;
    }
}
