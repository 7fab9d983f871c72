package io.leaderpacer.agent.chaos;

import io.leaderpacer.agent.core.ElectionOutcome;
import io.leaderpacer.agent.core.ElectionResult;
import io.leaderpacer.agent.core.RunRecord;
import io.leaderpacer.agent.reorder.OrderRecord;
import io.leaderpacer.agent.reorder.ReorderReport;
import io.leaderpacer.agent.reorder.ReorderStatus;
import io.leaderpacer.agent.reorder.StoredOrders;
import io.leaderpacer.engine.EffectiveReplicaOrder;
import io.leaderpacer.engine.Election;
import io.leaderpacer.engine.ElectionDecision;
import io.leaderpacer.engine.cluster.ClusterSnapshot;
import io.leaderpacer.engine.cluster.PartitionId;
import io.leaderpacer.engine.cluster.PartitionState;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;

/**
 * The invariants the agent must keep after every run, whatever the cluster is going through.
 *
 * <p>Why pure: each check is a function of what one run saw (the snapshot the engine decided on), what it decided
 * and sent, and what the state topic holds afterwards, so each can be shown to fail on a hand-made run (see the
 * unit tests) before the chaos test trusts it on a real one. A check throws {@link AgentInvariantViolation} naming the
 * run, partition and broker; a method returns how many single checks (one invariant on one election, record or
 * partition) passed, the figure the chaos report adds up.
 *
 * <p>The invariants:
 * <ol>
 *   <li>every election goes to a replica in the ISR of the snapshot it was decided on, and to an active broker;</li>
 *   <li>no run decides or sends more elections than the configured cap;</li>
 *   <li>no election goes to a broker the same decision reports as gated;</li>
 *   <li>no election goes to a deprioritized broker while a replica outside the list could lead (KIP-491: last,
 *       never excluded), and Kafka elected only the stored first replica;</li>
 *   <li>the state topic is consistent: every record's original is the partition's order as created (a
 *       permutation of its current replica set), its reordered order is that original with some brokers moved to the
 *       end, nothing is unreadable; and once a run has nothing left to move, every record is {@code REORDERED} to
 *       the current list's order, no record is left for a partition the list does not reorder, and every partition
 *       is in the list's order of its original.</li>
 * </ol>
 */
final class InvariantChecks {

    /** The configured {@code leader.imbalance.election.max.per.run}. */
    private final int cap;
    /** Every partition's replica order as created, before the agent touched anything. */
    private final Map<PartitionId, List<Integer>> originals;

    InvariantChecks(int cap, Map<PartitionId, List<Integer>> originals) {
        if (cap < 1) {
            throw new IllegalArgumentException("cap must be >= 1, was " + cap);
        }
        this.cap = cap;
        this.originals = Map.copyOf(originals);
    }

    /**
     * Every check for one run.
     *
     * @param run     the run as the agent recorded it
     * @param decided the snapshot the engine decided on (empty when the run failed before deciding)
     * @param stored  the state topic as read right after the run (empty when it could not be read: its checks are
     *                then skipped for this run)
     * @param report  what the reorder step did in this run (empty when the run failed)
     * @return the number of single checks that passed
     * @throws AgentInvariantViolation at the first check that fails
     */
    int afterRun(
            RunRecord run,
            Optional<ClusterSnapshot> decided,
            Optional<StoredOrders> stored,
            Optional<ReorderReport> report) {
        int passed = checkCap(run);
        if (run.decision().isPresent()) {
            ClusterSnapshot snapshot = decided.orElseThrow(() -> new AgentInvariantViolation(
                    run.sequence(), "the engine decided without a snapshot from the order step"));
            passed += checkElections(run, snapshot);
        }
        if (stored.isPresent()) {
            passed += checkStateTopic(run, decided, stored.get());
            if (run.succeeded() && decided.isPresent() && report.isPresent() && nothingInProgress(report.get())) {
                passed += checkSettled(run, decided.get(), stored.get());
            }
        }
        return passed;
    }

    /** Invariant 2: at most {@code cap} elections decided and sent; a failed run sends none. */
    int checkCap(RunRecord run) {
        int decidedCount = run.decision().map(d -> d.elections().size()).orElse(0);
        if (decidedCount > cap) {
            throw new AgentInvariantViolation(
                    run.sequence(),
                    decidedCount + " elections decided, more than the cap of " + cap + " (first over the cap: "
                            + run.decision().orElseThrow().elections().get(cap).partition() + ")");
        }
        if (run.results().size() > cap) {
            throw new AgentInvariantViolation(
                    run.sequence(),
                    run.results().size() + " elections sent, more than the cap of " + cap + " (first over the cap: "
                            + run.results().get(cap).partition() + ")");
        }
        if (!run.succeeded() && !run.results().isEmpty()) {
            throw new AgentInvariantViolation(
                    run.sequence(),
                    "failed run (" + run.failure().orElse("") + ") sent elections, first "
                            + run.results().get(0).partition() + " to broker "
                            + run.results().get(0).targetLeader());
        }
        return 1;
    }

    /** Invariants 1, 3 and 4 for every election of the run. */
    int checkElections(RunRecord run, ClusterSnapshot decided) {
        ElectionDecision decision = run.decision().orElseThrow();
        SortedSet<Integer> deprioritized = run.config().deprioritizedBrokers();
        Map<PartitionId, PartitionState> byId = new HashMap<>();
        decided.partitions().forEach(p -> byId.put(p.id(), p));
        int passed = 0;
        for (Election e : decision.elections()) {
            PartitionState p = byId.get(e.partition());
            int to = e.newLeader();
            if (p == null) {
                throw new AgentInvariantViolation(
                        run.sequence(),
                        "election of " + e.partition() + " to broker " + to
                                + ", a partition not in the snapshot it was decided on");
            }
            if (!p.isrContains(to)) {
                throw new AgentInvariantViolation(
                        run.sequence(),
                        "election of " + e.partition() + " to broker " + to + ", outside the partition's ISR "
                                + Arrays.toString(p.isr()) + " in the snapshot it was decided on");
            }
            passed++;
            if (!decided.isActive(to)) {
                throw new AgentInvariantViolation(
                        run.sequence(),
                        "election of " + e.partition() + " to broker " + to
                                + ", which the snapshot reports as not active ("
                                + decided.brokers().get(to) + ")");
            }
            passed++;
            if (decision.isGated(to)) {
                throw new AgentInvariantViolation(
                        run.sequence(),
                        "election of " + e.partition() + " to broker " + to
                                + ", which the same decision reports as gated: "
                                + decision.broker(to).explain());
            }
            passed++;
            if (deprioritized.contains(to)) {
                for (int r : p.replicas()) {
                    if (!deprioritized.contains(r) && p.isrContains(r) && decided.isActive(r)) {
                        throw new AgentInvariantViolation(
                                run.sequence(),
                                "election of " + e.partition() + " to deprioritized broker "
                                        + to + " while replica " + r
                                        + " (not deprioritized, in the ISR, active) could lead; list "
                                        + deprioritized);
                    }
                }
            }
            passed++;
        }
        for (ElectionResult r : run.results()) {
            PartitionState p = byId.get(r.partition());
            if (r.outcome() == ElectionOutcome.ELECTED && (p == null || p.replicaAt(0) != r.targetLeader())) {
                throw new AgentInvariantViolation(
                        run.sequence(),
                        "Kafka elected broker " + r.targetLeader() + " for "
                                + r.partition()
                                + " by a preferred election, but its first replica in the decided snapshot is "
                                + (p == null ? "unknown" : p.replicaAt(0)));
            }
            passed++;
        }
        return passed;
    }

    /** Invariant 5, the part that holds after every run, finished or not. */
    int checkStateTopic(RunRecord run, Optional<ClusterSnapshot> decided, StoredOrders stored) {
        if (!stored.unreadable().isEmpty()) {
            Map.Entry<String, String> first =
                    stored.unreadable().entrySet().iterator().next();
            throw new AgentInvariantViolation(
                    run.sequence(),
                    "state topic holds an unreadable record for " + first.getKey() + ": " + first.getValue());
        }
        Map<PartitionId, PartitionState> byId = new HashMap<>();
        decided.ifPresent(s -> s.partitions().forEach(p -> byId.put(p.id(), p)));
        int passed = 1;
        for (OrderRecord r : stored.records().values()) {
            List<Integer> created = originals.get(r.partition());
            if (created == null) {
                throw new AgentInvariantViolation(
                        run.sequence(),
                        "state record for " + r.partition() + ", a partition that did not exist when the test started");
            }
            if (!r.original().equals(created)) {
                throw new AgentInvariantViolation(
                        run.sequence(),
                        "state record for " + r.partition() + " stores original order " + r.original()
                                + " but the partition was created as " + created);
            }
            passed++;
            PartitionState now = byId.get(r.partition());
            if (now != null && !new HashSet<>(r.original()).equals(asSet(now.replicas()))) {
                throw new AgentInvariantViolation(
                        run.sequence(),
                        "state record for " + r.partition() + " stores original order " + r.original()
                                + ", not a permutation of the current replica set " + Arrays.toString(now.replicas()));
            }
            passed++;
            if (r.reordered().equals(r.original()) || !isOriginalWithSuffixMoved(r.original(), r.reordered())) {
                throw new AgentInvariantViolation(
                        run.sequence(),
                        "state record for " + r.partition() + " (" + r.status()
                                + ") has reordered order " + r.reordered() + ", not its original " + r.original()
                                + " with some brokers moved to the end");
            }
            passed++;
        }
        return passed;
    }

    /** Invariant 5, the part that holds once a run had nothing left to move, restore, retry or skip. */
    int checkSettled(RunRecord run, ClusterSnapshot decided, StoredOrders stored) {
        SortedSet<Integer> list = run.config().deprioritizedBrokers();
        EffectiveReplicaOrder order = EffectiveReplicaOrder.of(list);
        int passed = 0;
        for (OrderRecord r : stored.records().values()) {
            List<Integer> expected = effective(r.partition(), r.original(), order);
            if (expected.equals(r.original())) {
                throw new AgentInvariantViolation(
                        run.sequence(),
                        "state record for " + r.partition() + " (" + r.status()
                                + ", original " + r.original()
                                + ") remains after a settled run, though the deprioritized list "
                                + list + " does not reorder it (no broker of the list ahead of one outside it)");
            }
            if (r.status() != ReorderStatus.REORDERED || !r.reordered().equals(expected)) {
                throw new AgentInvariantViolation(
                        run.sequence(),
                        "state record for " + r.partition() + " is " + r.status() + " to " + r.reordered()
                                + " after a settled run; with list " + list + " it should be REORDERED to " + expected);
            }
            passed++;
        }
        for (PartitionState p : decided.partitions()) {
            List<Integer> created = originals.get(p.id());
            if (created == null) {
                continue; // a partition the test did not create (none is expected); the state checks catch records for
                // it
            }
            List<Integer> expected = effective(p.id(), created, order);
            List<Integer> current = asList(p.replicas());
            if (!current.equals(expected)) {
                throw new AgentInvariantViolation(
                        run.sequence(),
                        "partition " + p.id() + " has order " + current
                                + " after a settled run; created as " + created + ", with list " + list
                                + " it should be " + expected
                                + (stored.records().containsKey(p.id()) ? "" : " (no state record)"));
            }
            passed++;
        }
        return passed;
    }

    /** Whether the step's report shows nothing moved, restored, refused, skipped or left behind in this run. */
    static boolean nothingInProgress(ReorderReport report) {
        return report.reordered().isEmpty()
                && report.restored().isEmpty()
                && report.conflicts().isEmpty()
                && report.failed().isEmpty()
                && report.skipped().isEmpty()
                && report.forgotten().isEmpty()
                && report.unreadable().isEmpty();
    }

    /** Whether {@code reordered} is {@code original} with some of its brokers moved to the end, in their original order. */
    static boolean isOriginalWithSuffixMoved(List<Integer> original, List<Integer> reordered) {
        if (original.size() != reordered.size() || !new HashSet<>(original).equals(new HashSet<>(reordered))) {
            return false;
        }
        for (int moved = 0; moved <= reordered.size(); moved++) {
            Set<Integer> suffix = new HashSet<>(reordered.subList(reordered.size() - moved, reordered.size()));
            List<Integer> candidate = new ArrayList<>(original.size());
            original.stream().filter(b -> !suffix.contains(b)).forEach(candidate::add);
            original.stream().filter(suffix::contains).forEach(candidate::add);
            if (candidate.equals(reordered)) {
                return true;
            }
        }
        return false;
    }

    /** The engine's effective order of a replica list under a deprioritized list. */
    private static List<Integer> effective(PartitionId id, List<Integer> replicas, EffectiveReplicaOrder order) {
        int[] array = replicas.stream().mapToInt(Integer::intValue).toArray();
        return asList(order.order(
                PartitionState.of(id.topic(), id.partition(), array, new int[0], PartitionState.NO_LEADER)));
    }

    private static Set<Integer> asSet(int[] brokers) {
        return new HashSet<>(asList(brokers));
    }

    private static List<Integer> asList(int[] brokers) {
        return Arrays.stream(brokers).boxed().toList();
    }
}
