package io.leaderpacer.agent.reorder;

import io.leaderpacer.agent.core.ActionGuard;
import io.leaderpacer.agent.core.ReplicaOrderStep;
import io.leaderpacer.agent.kafka.ReorderReassignments;
import io.leaderpacer.engine.cluster.ClusterSnapshot;
import io.leaderpacer.engine.cluster.PartitionId;
import io.leaderpacer.engine.cluster.PartitionState;
import io.leaderpacer.engine.config.PacerConfig;
import org.apache.kafka.clients.admin.Admin;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Applies KIP-491's deprioritized list to a real cluster before each decision, and undoes it exactly.
 *
 * <p>Why: Kafka's preferred replica is {@code replicas[0]} and it has no deprioritized list, so the agent moves
 * deprioritized brokers to the end of each affected replica list with a reorder-only reassignment (same brokers,
 * new order: completed at once, no data and no leader moved), and the engine's paced preferred elections then move
 * leadership off them. Each run, per batch of partitions:
 * <ol>
 *   <li>the original order is written durably to the state topic (write-ahead);</li>
 *   <li>the reorder-only reassignment is issued (after re-checking that no one else's reassignment is running);</li>
 *   <li>the new order is awaited in the brokers' metadata, then the record is marked {@code REORDERED}, or, for a
 *       restore, dropped.</li>
 * </ol>
 * A crash between any two of these leaves a record from which the next run, on any instance, converges (see
 * {@link ReorderPlanner}). A partition whose replica set someone else changed is left alone, its record dropped,
 * and reported in the log and in {@link #lastReport()} / {@link #conflicts()}.
 *
 * <p>Run this step on every run even with an empty list: that is when restorations happen. With an empty list and
 * an empty (or missing) state topic it costs one incremental read and does nothing else.
 */
public final class DeprioritizedOrderStep implements ReplicaOrderStep {

    private static final Logger LOG = LoggerFactory.getLogger(DeprioritizedOrderStep.class);

    /** Default number of partitions per reassignment request (and per write-ahead flush). */
    public static final int DEFAULT_BATCH_SIZE = 1000;
    /** Refused reorders logged one by one per batch; the rest are counted. */
    private static final int REFUSALS_LOGGED = 10;
    /** Most conflicts kept for {@link #conflicts()}; older ones are only in the log. */
    private static final int CONFLICTS_KEPT = 1000;

    /** The write-ahead records; owned by the caller. */
    private final OrderStateStore store;
    /** The Kafka calls. */
    private final ReorderReassignments kafka;
    /** Partitions per reassignment request: bounds request size and the work lost to a crash. */
    private final int batchSize;
    /** Told after the write-ahead, the reassignment and the confirmation of each batch. */
    private final ReorderListener listener;

    /** What the last run did; replaced at the end of each run. */
    private volatile ReorderReport lastReport = ReorderReport.NOTHING;
    /** Conflicts found by this instance, oldest first, at most {@link #CONFLICTS_KEPT}. */
    private final List<ReplicaSetConflict> conflicts = new ArrayList<>();
    /** Unreadable record keys already logged, so a bad record is reported once, not every run. */
    private final Set<String> loggedUnreadable = new HashSet<>();

    private DeprioritizedOrderStep(Builder b) {
        this.store = b.store;
        this.kafka = new ReorderReassignments(b.admin, b.timeout, b.confirmTimeout, b.guard);
        this.batchSize = b.batchSize;
        this.listener = b.listener;
    }

    /**
     * A builder for a step on the given cluster and state store.
     *
     * @param admin the agent's Admin client (not closed by the step)
     * @param store the state topic (not closed by the step)
     */
    public static Builder builder(Admin admin, OrderStateStore store) {
        return new Builder(admin, store);
    }

    @Override
    public ClusterSnapshot apply(ClusterSnapshot snapshot, PacerConfig config) throws Exception {
        StoredOrders stored = store.load();
        logUnreadable(stored.unreadable());
        if (stored.records().isEmpty() && config.deprioritizedBrokers().isEmpty()) {
            lastReport = stored.unreadable().isEmpty()
                    ? ReorderReport.NOTHING
                    : new ReorderReport(
                            List.of(), List.of(), List.of(), Map.of(), List.of(), List.of(), stored.unreadable());
            return snapshot;
        }
        ReorderPlan plan = ReorderPlanner.plan(
                snapshot, config.deprioritizedBrokers(), stored.records(), stored.unreadablePartitions());

        List<PartitionId> drop = new ArrayList<>(plan.restored());
        for (ReplicaSetConflict c : plan.conflicts()) {
            LOG.warn("KIP-491 reorder: {}", c.describe());
            drop.add(c.partition());
        }
        List<PartitionId> forgotten =
                plan.absent().isEmpty() ? List.of() : new ArrayList<>(kafka.missing(plan.absent()));
        forgotten.forEach(p -> LOG.info(
                "KIP-491 reorder: partition {} no longer exists; its stored original order {} is dropped",
                p,
                stored.records().get(p).original()));
        drop.addAll(forgotten);
        store.remove(drop);
        store.put(plan.confirmations());

        List<PartitionId> skipped = new ArrayList<>(plan.skipped());
        List<PartitionId> reordered = new ArrayList<>();
        List<PartitionId> restored = new ArrayList<>(plan.restored());
        Map<PartitionId, String> failed = new LinkedHashMap<>();
        Map<PartitionId, List<Integer>> inForce = new HashMap<>();
        List<ReorderMove> moves = plan.moves();
        for (int from = 0; from < moves.size(); from += batchSize) {
            List<ReorderMove> batch = moves.subList(from, Math.min(moves.size(), from + batchSize));
            List<ReorderMove> done = applyBatch(batch, skipped, failed);
            for (ReorderMove m : done) {
                inForce.put(m.partition(), m.target());
                (m.isRestore() ? restored : reordered).add(m.partition());
            }
        }

        synchronized (conflicts) {
            conflicts.addAll(plan.conflicts());
            while (conflicts.size() > CONFLICTS_KEPT) {
                conflicts.remove(0);
            }
        }
        ReorderReport report = new ReorderReport(
                reordered, restored, plan.conflicts(), failed, skipped, forgotten, stored.unreadable());
        lastReport = report;
        if (!plan.isEmpty() || !failed.isEmpty()) {
            LOG.info("KIP-491 reorder (deprioritized {}): {}", config.deprioritizedBrokers(), report.summary());
        }
        return inForce.isEmpty() ? snapshot : withOrders(snapshot, inForce);
    }

    /** Write-ahead, reassign, confirm one batch; returns the moves Kafka completed. */
    private List<ReorderMove> applyBatch(
            List<ReorderMove> batch, List<PartitionId> skipped, Map<PartitionId, String> failed) throws Exception {
        Set<PartitionId> busy = kafka.underReassignment(
                batch.stream().map(ReorderMove::partition).toList());
        List<ReorderMove> go = new ArrayList<>(batch.size());
        for (ReorderMove m : batch) {
            if (busy.contains(m.partition())) {
                skipped.add(m.partition());
            } else {
                go.add(m);
            }
        }
        if (go.isEmpty()) {
            return List.of();
        }
        store.put(go.stream().map(ReorderMove::writeAhead).toList());
        listener.writeAheadDurable(go);

        Map<PartitionId, List<Integer>> targets = new LinkedHashMap<>();
        go.forEach(m -> targets.put(m.partition(), m.target()));
        Map<PartitionId, String> refused = kafka.reorder(targets);
        logRefused(refused, targets);
        failed.putAll(refused);
        List<ReorderMove> done = new ArrayList<>(go.size());
        go.forEach(m -> {
            if (!refused.containsKey(m.partition())) {
                done.add(m);
            }
        });
        if (done.isEmpty()) {
            return done;
        }
        listener.reassigned(done);

        Map<PartitionId, List<Integer>> doneTargets = new LinkedHashMap<>();
        done.forEach(m -> doneTargets.put(m.partition(), m.target()));
        Set<PartitionId> seen = kafka.awaitOrders(doneTargets);
        List<OrderRecord> settled = new ArrayList<>();
        List<PartitionId> restoredSeen = new ArrayList<>();
        List<ReorderMove> confirmed = new ArrayList<>();
        for (ReorderMove m : done) {
            if (!seen.contains(m.partition())) {
                continue; // the next run sees it and confirms or drops the record
            }
            confirmed.add(m);
            if (m.isRestore()) {
                restoredSeen.add(m.partition());
            } else {
                settled.add(m.writeAhead().withStatus(ReorderStatus.REORDERED));
            }
        }
        store.put(settled);
        store.remove(restoredSeen);
        if (!confirmed.isEmpty()) {
            listener.confirmed(confirmed);
        }
        return done;
    }

    private static ClusterSnapshot withOrders(ClusterSnapshot snapshot, Map<PartitionId, List<Integer>> orders) {
        ClusterSnapshot.Builder b =
                ClusterSnapshot.builder().brokers(snapshot.brokers().values());
        for (PartitionState p : snapshot.partitions()) {
            List<Integer> order = orders.get(p.id());
            if (order == null) {
                b.partition(p);
            } else {
                int[] replicas = order.stream().mapToInt(Integer::intValue).toArray();
                b.partition(new PartitionState(
                        p.id(),
                        replicas,
                        p.isr(),
                        p.elr(),
                        p.leader(),
                        p.reassigning(),
                        p.topicDeleting(),
                        p.lastKnownElr()));
            }
        }
        return b.build();
    }

    /** One line per refusal for a few, one summary line for many (a whole batch fails together when the controller is away). */
    private static void logRefused(Map<PartitionId, String> refused, Map<PartitionId, List<Integer>> targets) {
        int shown = 0;
        for (Map.Entry<PartitionId, String> e : refused.entrySet()) {
            if (shown++ == REFUSALS_LOGGED) {
                LOG.warn(
                        "KIP-491 reorder: Kafka refused {} more reorders of this batch (retried next run)",
                        refused.size() - REFUSALS_LOGGED);
                return;
            }
            LOG.warn(
                    "KIP-491 reorder: Kafka refused reordering {} to {}: {} (retried next run)",
                    e.getKey(),
                    targets.get(e.getKey()),
                    e.getValue());
        }
    }

    private void logUnreadable(Map<String, String> unreadable) {
        unreadable.forEach((key, why) -> {
            if (loggedUnreadable.add(key)) {
                LOG.error(
                        "KIP-491 reorder: {}; its partition is left alone until the record is fixed or deleted from topic {}",
                        why,
                        store.topicName());
            }
        });
    }

    /** What the last run did. */
    public ReorderReport lastReport() {
        return lastReport;
    }

    /** Every replica-set conflict this instance found (at most the last 1000), oldest first. */
    public List<ReplicaSetConflict> conflicts() {
        synchronized (conflicts) {
            return List.copyOf(conflicts);
        }
    }

    /** Settings of a {@link DeprioritizedOrderStep}; defaults suit a production agent. */
    public static final class Builder {
        private final Admin admin;
        private final OrderStateStore store;
        private int batchSize = DEFAULT_BATCH_SIZE;
        private Duration timeout = Duration.ofSeconds(30);
        private Duration confirmTimeout = Duration.ofSeconds(5);
        private ReorderListener listener = ReorderListener.NONE;
        private ActionGuard guard = ActionGuard.NONE;

        private Builder(Admin admin, OrderStateStore store) {
            this.admin = Objects.requireNonNull(admin, "admin");
            this.store = Objects.requireNonNull(store, "store");
        }

        /** Partitions per reassignment request, at least 1 (default 1000). */
        public Builder batchSize(int value) {
            if (value < 1) {
                throw new IllegalArgumentException("batch size must be >= 1, was " + value);
            }
            this.batchSize = value;
            return this;
        }

        /** Bound on each Admin call (default 30 s). */
        public Builder timeout(Duration value) {
            this.timeout = Objects.requireNonNull(value, "timeout");
            return this;
        }

        /** How long a run waits to see its reorders in the brokers' metadata (default 5 s); the rest is left to the next run. */
        public Builder confirmTimeout(Duration value) {
            this.confirmTimeout = Objects.requireNonNull(value, "confirmTimeout");
            return this;
        }

        /** Told after each write-ahead, reassignment and confirmation (default: nothing). */
        /**
         * Asked before each reassignment request whether this instance may act (several instances: the active one
         * only); default: always.
         */
        public Builder actionGuard(ActionGuard value) {
            this.guard = Objects.requireNonNull(value, "guard");
            return this;
        }

        public Builder listener(ReorderListener value) {
            this.listener = Objects.requireNonNull(value, "listener");
            return this;
        }

        public DeprioritizedOrderStep build() {
            return new DeprioritizedOrderStep(this);
        }
    }
}
