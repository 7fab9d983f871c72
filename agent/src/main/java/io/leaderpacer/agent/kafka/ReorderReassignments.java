package io.leaderpacer.agent.kafka;

import io.leaderpacer.agent.config.SecretRedactor;
import io.leaderpacer.agent.core.ActionGuard;
import io.leaderpacer.agent.core.Answers;
import io.leaderpacer.agent.core.NotActiveException;
import io.leaderpacer.engine.cluster.PartitionId;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewPartitionReassignment;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.common.utils.Timer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The Kafka side of a reorder: reorder-only partition reassignments and the reads that check them.
 *
 * <p>Why a class of its own: the step's sequencing (write-ahead, reassign, confirm) reads as a recipe when the
 * Admin plumbing, per-partition error handling and polling live here.
 */
public final class ReorderReassignments {

    /** Pause between two reads while waiting for brokers' metadata to show a new order. */
    private static final long POLL_MS = 100;

    /** Owned by the caller. */
    private final Admin admin;
    /** Bound on each Admin call. */
    private final Duration timeout;
    /** How long to wait for the brokers' metadata to show a completed reorder before leaving it to the next run. */
    private final Duration confirmTimeout;

    /** Asked before each reassignment request whether this instance may still act. */
    private final ActionGuard guard;
    /** The clock the waits are kept on. */
    private final Time time;

    ReorderReassignments(Admin admin, Duration timeout, Duration confirmTimeout) {
        this(admin, timeout, confirmTimeout, ActionGuard.NONE);
    }

    /** Reassignments sent only after {@code guard} allows them ({@link NotActiveException} otherwise). */
    public ReorderReassignments(Admin admin, Duration timeout, Duration confirmTimeout, ActionGuard guard) {
        this(admin, timeout, confirmTimeout, guard, Time.SYSTEM);
    }

    /** As above, its waits kept on {@code time}. */
    ReorderReassignments(Admin admin, Duration timeout, Duration confirmTimeout, ActionGuard guard, Time time) {
        this.time = Objects.requireNonNull(time, "time");
        this.guard = Objects.requireNonNull(guard, "guard");
        this.admin = Objects.requireNonNull(admin, "admin");
        this.timeout = Objects.requireNonNull(timeout, "timeout");
        this.confirmTimeout = Objects.requireNonNull(confirmTimeout, "confirmTimeout");
    }

    /**
     * Which of the partitions are being reassigned right now: a reassignment issued for one of them would replace
     * someone else's move, so the step re-checks just before issuing its own.
     */
    public Set<PartitionId> underReassignment(Collection<PartitionId> partitions)
            throws InterruptedException, ExecutionException, TimeoutException {
        Set<TopicPartition> tps = new HashSet<>();
        partitions.forEach(p -> tps.add(toKafka(p)));
        Set<PartitionId> out = new HashSet<>();
        try {
            admin.listPartitionReassignments(tps)
                    .reassignments()
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS)
                    .keySet()
                    .forEach(tp -> out.add(fromKafka(tp)));
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) {
                throw e;
            }
            // a partition of the batch was deleted meanwhile: the reassignment reports it per partition
        }
        return out;
    }

    /**
     * Issues one reorder-only reassignment per partition, in one request, if the guard allows it.
     *
     * @throws NotActiveException when this instance may not act; nothing was sent
     *
     * @return the partitions Kafka refused, with the reason; the others were reordered
     */
    public Map<PartitionId, String> reorder(Map<PartitionId, List<Integer>> targets) throws InterruptedException {
        Map<TopicPartition, Optional<NewPartitionReassignment>> request = new LinkedHashMap<>();
        targets.forEach((p, order) -> request.put(toKafka(p), Optional.of(new NewPartitionReassignment(order))));
        guard.checkActive("alterPartitionReassignments of " + request.size() + " partition(s)");
        Map<TopicPartition, KafkaFuture<Void>> results =
                admin.alterPartitionReassignments(request).values();
        Map<PartitionId, String> failures = new LinkedHashMap<>();
        Answers.await(results, time.timer(timeout))
                .failed()
                .forEach((tp, cause) -> failures.put(
                        fromKafka(tp),
                        cause instanceof TimeoutException
                                ? "no answer within " + timeout.toMillis() + " ms"
                                : SecretRedactor.none().describe(cause)));
        return failures;
    }

    /**
     * Waits until the brokers' metadata shows each partition in its target order (right after a reorder it can
     * briefly show the old one), up to the confirmation time-out.
     *
     * @return the partitions seen in their target order
     */
    public Set<PartitionId> awaitOrders(Map<PartitionId, List<Integer>> targets) throws InterruptedException {
        Set<PartitionId> confirmed = new HashSet<>();
        Set<String> topics = new HashSet<>();
        targets.keySet().forEach(p -> topics.add(p.topic()));
        Timer deadline = time.timer(confirmTimeout);
        while (true) {
            Map<PartitionId, List<Integer>> seen = currentOrders(topics);
            targets.forEach((p, order) -> {
                if (order.equals(seen.get(p))) {
                    confirmed.add(p);
                }
            });
            deadline.update();
            if (confirmed.size() == targets.size() || deadline.isExpired()) {
                return confirmed;
            }
            time.sleep(Math.min(POLL_MS, deadline.remainingMs()));
        }
    }

    /**
     * Which of the partitions do not exist in the cluster (their topic was deleted, or it has fewer partitions).
     * Partitions whose topic cannot be described for another reason are not reported missing.
     */
    public Set<PartitionId> missing(Collection<PartitionId> partitions) throws InterruptedException {
        Set<String> topics = new HashSet<>();
        partitions.forEach(p -> topics.add(p.topic()));
        Map<String, KafkaFuture<TopicDescription>> described =
                admin.describeTopics(topics).topicNameValues();
        Map<String, Integer> partitionCounts = new HashMap<>();
        Set<String> deleted = new HashSet<>();
        for (Map.Entry<String, KafkaFuture<TopicDescription>> e : described.entrySet()) {
            try {
                partitionCounts.put(
                        e.getKey(),
                        e.getValue()
                                .get(timeout.toMillis(), TimeUnit.MILLISECONDS)
                                .partitions()
                                .size());
            } catch (ExecutionException ex) {
                if (ex.getCause() instanceof UnknownTopicOrPartitionException) {
                    deleted.add(e.getKey());
                }
            } catch (TimeoutException ex) {
                // unknown: not reported missing
            }
        }
        Set<PartitionId> out = new HashSet<>();
        for (PartitionId p : partitions) {
            Integer count = partitionCounts.get(p.topic());
            if (deleted.contains(p.topic()) || (count != null && p.partition() >= count)) {
                out.add(p);
            }
        }
        return out;
    }

    private Map<PartitionId, List<Integer>> currentOrders(Set<String> topics) throws InterruptedException {
        Map<PartitionId, List<Integer>> out = new HashMap<>();
        Map<String, KafkaFuture<TopicDescription>> described =
                admin.describeTopics(topics).topicNameValues();
        for (Map.Entry<String, KafkaFuture<TopicDescription>> e : described.entrySet()) {
            try {
                for (TopicPartitionInfo info : e.getValue()
                        .get(timeout.toMillis(), TimeUnit.MILLISECONDS)
                        .partitions()) {
                    List<Integer> replicas = new ArrayList<>(info.replicas().size());
                    for (Node n : info.replicas()) {
                        replicas.add(n.id());
                    }
                    out.put(new PartitionId(e.getKey(), info.partition()), replicas);
                }
            } catch (ExecutionException | TimeoutException ex) {
                // not confirmed this time; the caller polls again or leaves it to the next run
            }
        }
        return out;
    }

    static TopicPartition toKafka(PartitionId p) {
        return new TopicPartition(p.topic(), p.partition());
    }

    static PartitionId fromKafka(TopicPartition tp) {
        return new PartitionId(tp.topic(), tp.partition());
    }
}
