package io.leaderpacer.agent.core;

import io.leaderpacer.engine.ElectionDecision;
import io.leaderpacer.engine.cluster.ClusterSnapshot;
import io.leaderpacer.engine.cluster.PartitionState;
import io.leaderpacer.engine.config.PacerConfig;

import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * One run of the agent: what it read, what the engine decided, what Kafka answered, and when the next run is.
 *
 * <p>Why: the status page, the metrics, the demo's timeline and the tests all need the same facts about each
 * run; an immutable record kept in a short history gives them all one source. A failed run (cluster unreadable,
 * reorder step failed) has no decision and carries its scrubbed error message.
 *
 * @param sequence        1 for the agent's first run, then increasing
 * @param startedAtMs     the agent clock's time when the run started (the engine's {@code nowMs})
 * @param finishedAtMs    the agent clock's time when the run ended
 * @param dryRun          whether elections were only decided, not sent
 * @param config          the effective policy of the run
 * @param decision        the engine's decision; empty when the run failed before deciding
 * @param results         one per decided election, in decision order (empty for a dry run)
 * @param leadersByBroker partitions led per broker when the cluster was read (before this run's elections)
 * @param partitionCount  partitions in the snapshot
 * @param timings         phase durations
 * @param failure         why the run failed, scrubbed of secrets; empty when it did not
 * @param nextRunDelayMs  the delay the schedule chose after this run
 */
public record RunRecord(
        long sequence,
        long startedAtMs,
        long finishedAtMs,
        boolean dryRun,
        PacerConfig config,
        Optional<ElectionDecision> decision,
        List<ElectionResult> results,
        Map<Integer, Integer> leadersByBroker,
        int partitionCount,
        RunTimings timings,
        Optional<String> failure,
        long nextRunDelayMs) {

    public RunRecord {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(decision, "decision");
        results = List.copyOf(results);
        leadersByBroker = Collections.unmodifiableSortedMap(new TreeMap<>(leadersByBroker));
        Objects.requireNonNull(timings, "timings");
        Objects.requireNonNull(failure, "failure");
    }

    /** Whether the run read, decided and (unless dry) sent its elections. Per-partition errors do not fail a run. */
    public boolean succeeded() {
        return failure.isEmpty();
    }

    /** Results with this outcome. */
    public long count(ElectionOutcome outcome) {
        return results.stream().filter(r -> r.outcome() == outcome).count();
    }

    /** Elections Kafka carried out that made the given broker leader. */
    public long electedTo(int broker) {
        return results.stream()
                .filter(r -> r.outcome() == ElectionOutcome.ELECTED && r.targetLeader() == broker)
                .count();
    }

    /** Partitions the broker led when the run read the cluster. */
    public int leaderCount(int broker) {
        return leadersByBroker.getOrDefault(broker, 0);
    }

    /** Partitions led per registered broker (0 for a broker leading none) in a snapshot. */
    public static Map<Integer, Integer> leaderCounts(ClusterSnapshot snapshot) {
        Map<Integer, Integer> counts = new TreeMap<>();
        for (int broker : snapshot.brokers().keySet()) {
            counts.put(broker, 0);
        }
        for (PartitionState p : snapshot.partitions()) {
            if (p.hasLeader()) {
                counts.merge(p.leader(), 1, Integer::sum);
            }
        }
        return counts;
    }

    /** Wall time of the run on the agent clock. */
    public long durationMs() {
        return finishedAtMs - startedAtMs;
    }

    /** One line for the log. */
    public String summary() {
        if (failure.isPresent()) {
            return "run " + sequence + " failed: " + failure.get() + "; next run in " + nextRunDelayMs + " ms";
        }
        ElectionDecision d = decision.orElseThrow();
        StringBuilder sb = new StringBuilder("run ")
                .append(sequence)
                .append(": ")
                .append(partitionCount)
                .append(" partitions, ")
                .append(d.imbalancedCount())
                .append(" imbalanced, ")
                .append(d.elections().size())
                .append(dryRun ? " elections decided (dry run)" : " elections decided");
        if (!dryRun && !results.isEmpty()) {
            sb.append(" (").append(count(ElectionOutcome.ELECTED)).append(" elected");
            for (ElectionOutcome o : ElectionOutcome.values()) {
                long n = count(o);
                if (o != ElectionOutcome.ELECTED && n > 0) {
                    sb.append(", ").append(n).append(' ').append(o.name().toLowerCase(Locale.ROOT));
                }
            }
            sb.append(')');
        }
        sb.append(", ")
                .append(d.skippedByGate())
                .append(" skipped by gate, ")
                .append(d.deferredByThrottle())
                .append(" deferred by throttle, ")
                .append(d.gatedBrokerCount())
                .append(" gated broker(s); ")
                .append(String.format(Locale.ROOT, "%.0f ms", timings.totalMillis()))
                .append("; next run in ")
                .append(nextRunDelayMs)
                .append(" ms (")
                .append(d.nextRunReason())
                .append(')');
        return sb.toString();
    }
}
