package io.leaderpacer.agent.pacing;

import io.leaderpacer.agent.coordination.ActionGuard;
import io.leaderpacer.agent.pacing.ThrottleLedger.Change;
import io.leaderpacer.agent.throttle.BrokerScope;
import io.leaderpacer.agent.throttle.ThrottleConfigs;
import io.leaderpacer.agent.throttle.ThrottleReading;
import io.leaderpacer.agent.throttle.ThrottledReplicas;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

/**
 * Brings the cluster's follower throttle to a {@link ThrottlePlan} while keeping what others set: it reads what is
 * there, lets the {@link ReconcilePlanner} decide the changes, and sends them in requests of the size Kafka takes,
 * each one recorded in its {@link ThrottleLedger} around it.
 *
 * <p>The order for every request, so that nothing pacing changes is ever left unowned: the active-instance guard
 * first (a deposed instance records and sends nothing), then the ledger records what the request adds to pacing's
 * ownership, then the request, then the ledger records what it gave up, for the resources Kafka confirmed. A request
 * refused, failed, timed out or cut short by a crash leaves the ledger covering what is in the cluster, whichever
 * part of it landed.
 *
 * <p>Why requests of a bounded size: the KRaft controller refuses, all or nothing, a config request that would write
 * more than 10,000 records ({@code QuorumController.MAX_RECORDS_PER_USER_OP}); a look at a broker that hosts replicas
 * of more topics than that would otherwise fail every time, with its throttle in place.
 */
final class ThrottleReconciler {

    /**
     * Sizes of what it sends and reads.
     *
     * @param maxListChars     the longest replica list it writes (Kafka's limit; shorter in tests of a few partitions)
     * @param maxOpsPerRequest the most config changes in one request: at most the controller's 10,000 records
     * @param describeBatch    the most resources one {@code describeConfigs} call asks for
     */
    record Limits(int maxListChars, int maxOpsPerRequest, int describeBatch) {

        /** The controller's limit on the records one request may write. */
        static final int KAFKA_MAX_RECORDS_PER_REQUEST = 10_000;
        /** The most characters of values one request carries, well under Kafka's default 100 MiB request size. */
        static final int MAX_REQUEST_VALUE_CHARS = 8 << 20;

        Limits {
            if (maxListChars < 1 || maxOpsPerRequest < 1 || maxOpsPerRequest > KAFKA_MAX_RECORDS_PER_REQUEST
                    || describeBatch < 1) {
                throw new IllegalArgumentException("limits out of range: " + maxListChars + ", " + maxOpsPerRequest
                        + ", " + describeBatch);
            }
        }

        /** Kafka's own limits, describing {@code describeBatch} resources a call. */
        static Limits kafka(int describeBatch) {
            return new Limits(ThrottledReplicas.MAX_CONFIG_VALUE_CHARS, KAFKA_MAX_RECORDS_PER_REQUEST, describeBatch);
        }
    }

    private final ThrottleConfigs throttles;
    private final ThrottleLedger ledger;
    private final ActionGuard guard;
    private final Limits limits;
    private final ReconcilePlanner planner;

    ThrottleReconciler(ThrottleConfigs throttles, ThrottleLedger ledger, ActionGuard guard, Limits limits) {
        this.throttles = throttles;
        this.ledger = ledger;
        this.guard = guard;
        this.limits = limits;
        this.planner = new ReconcilePlanner(ledger, limits.maxListChars());
    }

    /**
     * What a reconciliation did and saw.
     *
     * @param changes  what it changed
     * @param notes    what it saw and left alone, for the log and {@code /status}
     * @param failures the changes Kafka did not confirm, with why: each is tried again at the next look
     */
    record Outcome(List<String> changes, List<String> notes, List<String> failures) {
        Outcome {
            changes = List.copyOf(changes);
            notes = List.copyOf(notes);
            failures = List.copyOf(failures);
        }
    }

    /**
     * Brings the cluster to the plan.
     *
     * @param active the brokers that are up: only their per-broker values can be read and written
     * @throws ExecutionException when Kafka denied a read or a change (the cause is its
     *                            {@link AuthorizationException}): pacing cannot work without the permission
     */
    Outcome reconcile(ThrottlePlan plan, Set<Integer> active) throws InterruptedException, ExecutionException,
            TimeoutException {
        return reconcile(plan, active, false);
    }

    /**
     * What {@link #reconcile} would change, without changing anything or recording anything (for {@code pacer plan}).
     */
    Outcome preview(ThrottlePlan plan, Set<Integer> active) throws InterruptedException, ExecutionException,
            TimeoutException {
        return reconcile(plan, active, true);
    }

    /** Restores everything it owns that can be restored now (brokers that are up); what is left waits. */
    Outcome restoreAll(Set<Integer> active) throws InterruptedException, ExecutionException, TimeoutException {
        return reconcile(ThrottlePlan.NONE, active);
    }

    boolean ownsNothing() {
        return ledger.isEmpty();
    }

    private Outcome reconcile(ThrottlePlan plan, Set<Integer> active, boolean dry) throws InterruptedException,
            ExecutionException, TimeoutException {
        Set<BrokerScope> scopes = new HashSet<>();
        scopes.add(BrokerScope.clusterDefault());
        plan.brokerRates().keySet().forEach(b -> scopes.add(BrokerScope.broker(b)));
        for (BrokerScope s : ledger.rateScopes()) {
            if (!s.isClusterDefault()) {
                scopes.add(s);
            }
        }
        scopes.removeIf(s -> !s.isClusterDefault() && !active.contains(Integer.parseInt(s.brokerId())));
        Set<String> topics = new TreeSet<>(plan.entries().keySet());
        topics.addAll(ledger.topics());
        ThrottleReading now = throttles.describeEach(scopes, topics, limits.describeBatch());
        for (Throwable t : now.failed().values()) {
            if (t instanceof AuthorizationException) {
                throw new ExecutionException("describeConfigs denied", t);
            }
        }
        ReconcilePlanner.Planned planned = planner.plan(plan, scopes, topics, now);
        if (dry) {
            return new Outcome(planned.edits().stream().map(ThrottleEdit::description).toList(), planned.notes(),
                    List.of());
        }
        ledger.update().applyAll(planned.forget()).commit();
        List<String> changes = new ArrayList<>();
        List<String> notes = new ArrayList<>(planned.notes());
        List<String> failures = new ArrayList<>();
        Optional<Throwable> denied = Optional.empty();
        // A resource whose change was not confirmed gets no later change in this look: a SUBTRACT after an APPEND that
        // did not land would empty a list the APPEND was to keep. The next look plans it again from what is there.
        Set<ConfigResource> unconfirmed = new HashSet<>();
        for (List<ThrottleEdit> plannedRequest : requests(planned.edits())) {
            List<ThrottleEdit> request = plannedRequest.stream().filter(e -> !unconfirmed.contains(e.op().resource()))
                    .toList();
            if (request.isEmpty()) {
                continue;
            }
            guard.checkActive("alter follower throttle configs: " + request.size() + " change(s), first "
                    + request.get(0).description());
            ledger.update().applyAll(request.stream().flatMap(e -> e.before().stream()).toList()).commit();
            Map<ConfigResource, Optional<Throwable>> answers = throttles.applyEach(
                    request.stream().map(ThrottleEdit::op).toList());
            ThrottleLedger.Update after = ledger.update();
            for (ThrottleEdit e : request) {
                Optional<Throwable> failure = answers.getOrDefault(e.op().resource(),
                        Optional.of(new IllegalStateException("no answer for " + e.op().resource())));
                if (failure.isEmpty()) {
                    after.applyAll(e.after());
                    changes.add(e.description());
                } else if (failure.get() instanceof UnknownTopicOrPartitionException) {
                    String topic = e.op().resource().name();
                    after.apply(Change.forgetEntries(topic)).apply(Change.forgetAll(topic));
                    notes.add("topic " + topic + " no longer exists: pacing's follower entries on it went with it");
                } else if (failure.get() instanceof AuthorizationException) {
                    denied = failure;
                    unconfirmed.add(e.op().resource());
                } else {
                    failures.add(e.description() + ": " + ThrottleReading.describe(failure.get()));
                    unconfirmed.add(e.op().resource());
                }
            }
            after.commit();
        }
        if (denied.isPresent()) {
            throw new ExecutionException("incrementalAlterConfigs denied", denied.get());
        }
        return new Outcome(changes, notes, failures);
    }

    /**
     * The edits in requests: phase by phase, each request at most {@link Limits#maxOpsPerRequest()} changes and
     * {@link Limits#MAX_REQUEST_VALUE_CHARS} characters of values, each key of a resource at most once.
     */
    List<List<ThrottleEdit>> requests(List<ThrottleEdit> edits) {
        List<List<ThrottleEdit>> out = new ArrayList<>();
        List<ThrottleEdit> current = new ArrayList<>();
        Set<String> keys = new HashSet<>();
        long chars = 0;
        ThrottleEdit.Phase phase = null;
        for (ThrottleEdit e : edits) {
            String key = e.op().resource() + "/" + e.op().key();
            boolean full = current.size() >= limits.maxOpsPerRequest()
                    || chars + e.op().valueChars() > Limits.MAX_REQUEST_VALUE_CHARS;
            if (!current.isEmpty() && (e.phase() != phase || full || keys.contains(key))) {
                out.add(current);
                current = new ArrayList<>();
                keys.clear();
                chars = 0;
            }
            current.add(e);
            keys.add(key);
            chars += e.op().valueChars();
            phase = e.phase();
        }
        if (!current.isEmpty()) {
            out.add(current);
        }
        return out;
    }
}
