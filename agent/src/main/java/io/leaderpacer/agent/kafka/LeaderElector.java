package io.leaderpacer.agent.kafka;

import io.leaderpacer.agent.config.SecretRedactor;
import io.leaderpacer.agent.core.ActionGuard;
import io.leaderpacer.agent.core.ElectionOutcome;
import io.leaderpacer.agent.core.ElectionResult;
import io.leaderpacer.agent.core.NotActiveException;
import io.leaderpacer.agent.core.TimeoutMs;
import io.leaderpacer.engine.Election;
import io.leaderpacer.engine.cluster.ClusterSnapshot;
import io.leaderpacer.engine.cluster.PartitionId;
import io.leaderpacer.engine.cluster.PartitionState;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ElectLeadersOptions;
import org.apache.kafka.common.ElectionType;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.ElectionNotNeededException;
import org.apache.kafka.common.errors.PreferredLeaderNotAvailableException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Sends the engine's elections to Kafka as preferred-leader elections and reports each partition's outcome.
 *
 * <p>Why per partition: on a live cluster some elections of a batch are always refused for good reasons (the
 * leader moved meanwhile, the preferred replica dropped out of the ISR, the topic was deleted); one refusal must
 * not fail the batch or the run. Kafka's {@code ElectLeadersResult.all()} throws on any of them, so this reads
 * each partition's own result. Even a batch that fails as a whole (time-out, controller moved) becomes one
 * outcome per partition; the next run re-reads the cluster and decides again.
 *
 * <p>Safety: a preferred election always elects the partition's first replica as Kafka stores it. An election
 * whose target is any other broker (the engine's effective order differs from the stored one, e.g. a deprioritized
 * list that was not applied by a reorder) is not sent: it would elect the wrong broker.
 */
public final class LeaderElector {

    /** The cluster; owned by the caller. */
    private final Admin admin;
    /** Bound on each electLeaders call. */
    private final Duration timeout;
    /** Most partitions per electLeaders request. */
    private final int partitionsPerRequest;
    /** Scrubs secrets out of Kafka's error messages. */
    private final SecretRedactor redactor;
    /** Asked before each request whether this instance may still act (several instances: only the active one). */
    private final ActionGuard guard;

    public LeaderElector(Admin admin, Duration timeout, int partitionsPerRequest, SecretRedactor redactor) {
        this(admin, timeout, partitionsPerRequest, redactor, ActionGuard.NONE);
    }

    /**
     * An elector that asks {@code guard} before each request; a refusal ({@link NotActiveException}) ends the
     * call with nothing more sent.
     */
    public LeaderElector(
            Admin admin, Duration timeout, int partitionsPerRequest, SecretRedactor redactor, ActionGuard guard) {
        this.guard = Objects.requireNonNull(guard, "guard");
        this.admin = Objects.requireNonNull(admin, "admin");
        this.timeout = Objects.requireNonNull(timeout, "timeout");
        if (partitionsPerRequest < 1) {
            throw new IllegalArgumentException("partitionsPerRequest must be >= 1, was " + partitionsPerRequest);
        }
        this.partitionsPerRequest = partitionsPerRequest;
        this.redactor = Objects.requireNonNull(redactor, "redactor");
    }

    /**
     * Elects, in requests of at most {@code partitionsPerRequest} partitions, and returns one result per election
     * in the given order. Never throws for Kafka errors; throws {@link NotActiveException} when the guard refuses a
     * request (earlier requests of the call were sent).
     *
     * @param elections the engine's elections
     * @param snapshot  the snapshot they were decided on (to check each target is the stored first replica)
     */
    public List<ElectionResult> elect(List<Election> elections, ClusterSnapshot snapshot) throws InterruptedException {
        Map<PartitionId, PartitionState> decided = partitionsOf(elections, snapshot);
        Map<PartitionId, ElectionResult> results = new HashMap<>();
        Map<TopicPartition, Election> batch = new LinkedHashMap<>();
        for (Election e : elections) {
            PartitionState p = decided.get(e.partition());
            if (p == null || p.replicaAt(0) != e.newLeader()) {
                results.put(
                        e.partition(),
                        new ElectionResult(
                                e.partition(),
                                e.previousLeader(),
                                e.newLeader(),
                                ElectionOutcome.NOT_SENT_NOT_FIRST_REPLICA,
                                notSentDetail(e, p)));
                continue;
            }
            batch.put(new TopicPartition(e.partition().topic(), e.partition().partition()), e);
            if (batch.size() == partitionsPerRequest) {
                send(batch, results);
                batch.clear();
            }
        }
        if (!batch.isEmpty()) {
            send(batch, results);
        }
        List<ElectionResult> ordered = new ArrayList<>(elections.size());
        for (Election e : elections) {
            ordered.add(results.get(e.partition()));
        }
        return ordered;
    }

    private void send(Map<TopicPartition, Election> batch, Map<PartitionId, ElectionResult> results)
            throws InterruptedException {
        Map<TopicPartition, Optional<Throwable>> answers;
        guard.checkActive("electLeaders of " + batch.size() + " partition(s)");
        try {
            answers = admin.electLeaders(
                            ElectionType.PREFERRED,
                            batch.keySet(),
                            new ElectLeadersOptions().timeoutMs(TimeoutMs.of(timeout)))
                    .partitions()
                    .get(timeout.toMillis() + 5_000, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            recordAll(batch, results, e.getCause());
            return;
        } catch (TimeoutException e) {
            recordAll(
                    batch,
                    results,
                    new org.apache.kafka.common.errors.TimeoutException(
                            "no answer within " + (timeout.toMillis() + 5_000) + " ms"));
            return;
        }
        for (Map.Entry<TopicPartition, Election> entry : batch.entrySet()) {
            Election e = entry.getValue();
            Optional<Throwable> answer = answers.get(entry.getKey());
            if (answer == null) {
                results.put(
                        e.partition(),
                        result(e, ElectionOutcome.FAILED, "no result for the partition in Kafka's answer"));
            } else if (answer.isEmpty()) {
                results.put(e.partition(), result(e, ElectionOutcome.ELECTED, ""));
            } else {
                results.put(e.partition(), result(e, outcomeOf(answer.get()), redactor.describe(answer.get())));
            }
        }
    }

    private void recordAll(
            Map<TopicPartition, Election> batch, Map<PartitionId, ElectionResult> results, Throwable error) {
        ElectionOutcome outcome = outcomeOf(error);
        String detail = redactor.describe(error);
        for (Election e : batch.values()) {
            results.put(e.partition(), result(e, outcome, detail));
        }
    }

    /** Maps Kafka's per-partition error to an outcome. */
    static ElectionOutcome outcomeOf(Throwable error) {
        Throwable t = error;
        while ((t instanceof ExecutionException || t instanceof CompletionException) && t.getCause() != null) {
            t = t.getCause();
        }
        if (t instanceof ElectionNotNeededException) {
            return ElectionOutcome.NOT_NEEDED;
        }
        if (t instanceof PreferredLeaderNotAvailableException) {
            return ElectionOutcome.PREFERRED_NOT_AVAILABLE;
        }
        if (t instanceof UnknownTopicOrPartitionException) {
            return ElectionOutcome.UNKNOWN_PARTITION;
        }
        if (t instanceof org.apache.kafka.common.errors.TimeoutException) {
            return ElectionOutcome.TIMED_OUT;
        }
        return ElectionOutcome.FAILED;
    }

    /**
     * Why an election is not sent. A "no leader" decision (Kafka's rule when no replica can lead but the partition
     * still names a leader) is never sent: on a live cluster the controller writes that record itself when it
     * fences the leader or takes it through controlled shutdown (in the same batch of records as the fencing), so
     * the agent only sees it when its broker and partition reads straddle that batch. Seen on a real cluster
     * ({@code RestartedBrokerTest}): once the controller has written it, a preferred election request for the
     * partition is refused with {@code PREFERRED_LEADER_NOT_AVAILABLE} and changes nothing.
     */
    private static String notSentDetail(Election e, PartitionState p) {
        if (p == null) {
            return "not in the snapshot";
        }
        if (e.newLeader() == PartitionState.NO_LEADER) {
            return "no replica can lead (leader " + e.previousLeader()
                    + " is not valid): Kafka's rule writes no leader;"
                    + " the controller does that itself, so nothing is sent";
        }
        return "first replica is " + p.replicaAt(0) + ", a preferred election cannot elect " + e.newLeader();
    }

    private static ElectionResult result(Election e, ElectionOutcome outcome, String detail) {
        return new ElectionResult(e.partition(), e.previousLeader(), e.newLeader(), outcome, detail);
    }

    private static Map<PartitionId, PartitionState> partitionsOf(List<Election> elections, ClusterSnapshot snapshot) {
        Map<PartitionId, PartitionState> wanted = new HashMap<>(Math.max(16, elections.size() * 2));
        for (Election e : elections) {
            wanted.put(e.partition(), null);
        }
        for (PartitionState p : snapshot.partitions()) {
            if (wanted.containsKey(p.id())) {
                wanted.put(p.id(), p);
            }
        }
        return wanted;
    }
}
