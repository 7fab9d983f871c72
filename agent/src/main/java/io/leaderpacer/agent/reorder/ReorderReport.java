package io.leaderpacer.agent.reorder;

import io.leaderpacer.engine.cluster.PartitionId;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What one run of the step did, for logs, {@code /status} and tests.
 *
 * @param reordered  partitions moved to their effective order (deprioritized brokers last)
 * @param restored   partitions put back in their stored original order (records dropped or dropping)
 * @param conflicts  partitions whose replica set someone else changed: left alone, record dropped
 * @param failed     reassignments Kafka refused, with the reason; retried next run from their record
 * @param skipped    partitions left alone this run (under reassignment, topic being deleted, unreadable record)
 * @param forgotten  records dropped because their partition no longer exists
 * @param unreadable state records that could not be read, by key, with the reason
 */
public record ReorderReport(
        List<PartitionId> reordered,
        List<PartitionId> restored,
        List<ReplicaSetConflict> conflicts,
        Map<PartitionId, String> failed,
        List<PartitionId> skipped,
        List<PartitionId> forgotten,
        Map<String, String> unreadable) {

    /** A run that did nothing. */
    public static final ReorderReport NOTHING =
            new ReorderReport(List.of(), List.of(), List.of(), Map.of(), List.of(), List.of(), Map.of());

    public ReorderReport {
        reordered = List.copyOf(reordered);
        restored = List.copyOf(restored);
        conflicts = List.copyOf(conflicts);
        failed = Collections.unmodifiableMap(new TreeMap<>(failed));
        skipped = List.copyOf(skipped);
        forgotten = List.copyOf(forgotten);
        unreadable = Collections.unmodifiableMap(new TreeMap<>(unreadable));
    }

    /** One line for the log. */
    public String summary() {
        return "reordered " + reordered.size() + ", restored " + restored.size() + ", conflicts " + conflicts.size()
                + ", failed " + failed.size() + ", skipped " + skipped.size() + ", forgotten " + forgotten.size()
                + ", unreadable records " + unreadable.size();
    }
}
