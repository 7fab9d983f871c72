package io.leaderpacer.agent.pacing;

import io.leaderpacer.agent.core.ActionGuard;
import io.leaderpacer.agent.pacing.ThrottleLedger.Change;
import io.leaderpacer.agent.throttle.BrokerScope;
import io.leaderpacer.agent.throttle.ThrottleConfigs;
import io.leaderpacer.agent.throttle.ThrottleReading;
import io.leaderpacer.agent.throttle.ThrottleSide;
import io.leaderpacer.agent.throttle.ThrottledReplicas;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.utils.Time;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;

/**
 * The write half of {@link ThrottleReconciler}: sends a look's planned edits in requests of the size Kafka takes, each
 * recorded in the side's {@link ThrottleLedger} around it, then reads back what landed.
 *
 * <p>The order for every request, so that nothing pacing changes is ever left unowned: the active-instance guard
 * first (a deposed instance records and sends nothing), then the ledger records what the request adds to pacing's
 * ownership, then the request, then the ledger records what it gave up, for the resources Kafka confirmed.
 */
final class ThrottleWriter {

    /**
     * Reads again, at most this many times, while a change Kafka confirmed does not show yet. Why: the read right after
     * a request may ask a broker that has not applied it; until a read shows it, pacing takes what it reads as lag,
     * so a change someone makes in that time would be taken for lag too, and pacing's own value sent over it again.
     */
    static final int READ_BACKS_AGAIN = 3;
    /** The pause before each read again: brokers apply a committed config change within milliseconds. */
    static final long READ_BACK_PAUSE_MS = 100;

    private final ThrottleConfigs throttles;
    /** The reconciler's ledgers, per side (the same instances). */
    private final Map<ThrottleSide, ThrottleLedger> ledgers;

    private final ActionGuard guard;
    private final ThrottleReconciler.Limits limits;
    /** Sleeps between read-backs. */
    private final Time time;

    ThrottleWriter(
            ThrottleConfigs throttles,
            Map<ThrottleSide, ThrottleLedger> ledgers,
            ActionGuard guard,
            ThrottleReconciler.Limits limits,
            Time time) {
        this.throttles = throttles;
        this.ledgers = ledgers;
        this.guard = guard;
        this.limits = limits;
        this.time = time;
    }

    /** What a look's requests changed (their descriptions) and what failed. */
    record Written(List<String> changes, List<String> failures) {}

    /**
     * Sends the edits, then reads back what landed ({@link #confirmLanded}).
     *
     * @param listed the topics the look's own read lists: a topic Kafka says does not exist and the look did not list
     *               was deleted meanwhile
     * @param active the brokers that are up: only their rates are read back
     * @param notes  where a topic deleted meanwhile is noted
     * @throws ExecutionException when a change of a broker config was denied (after the other answers are recorded)
     */
    Written write(List<ThrottleEdit> edits, Set<String> listed, Set<Integer> active, List<String> notes)
            throws InterruptedException, ExecutionException, TimeoutException {
        Applied applied = apply(edits, listed, notes);
        if (!applied.changes().isEmpty()) {
            confirmLanded(active, applied.landed());
        }
        return new Written(applied.changes(), applied.failures());
    }

    /** What the requests changed (their descriptions), what failed, and the resources whose change landed. */
    private record Applied(List<String> changes, List<String> failures, Set<ConfigResource> landed) {}

    /**
     * Sends the edits, a request at a time, each recorded in the ledger before it is sent and its outcome after.
     *
     * @param notes where a topic deleted meanwhile is noted
     * @throws ExecutionException when a change of a broker config was denied (after the other answers are recorded)
     */
    private Applied apply(List<ThrottleEdit> edits, Set<String> listed, List<String> notes)
            throws InterruptedException, ExecutionException, TimeoutException {
        List<String> changes = new ArrayList<>();
        List<String> failures = new ArrayList<>();
        Optional<Throwable> denied = Optional.empty();
        // A key whose change was not confirmed gets no later change in this look: a SUBTRACT after an APPEND that did
        // not land would empty a list the APPEND was to keep. The next look plans it again from what is there.
        Set<String> unconfirmed = new HashSet<>();
        Set<ConfigResource> landed = new HashSet<>();
        for (List<ThrottleEdit> plannedRequest : requests(edits)) {
            List<ThrottleEdit> request = plannedRequest.stream()
                    .filter(e -> !unconfirmed.contains(key(e)))
                    .toList();
            if (request.isEmpty()) {
                continue;
            }
            guard.checkActive("alter replication throttle configs: " + request.size() + " change(s), first "
                    + request.get(0).description());
            record(request, true);
            Map<ConfigResource, Optional<Throwable>> answers =
                    throttles.applyEach(request.stream().map(ThrottleEdit::op).toList());
            Map<ThrottleSide, ThrottleLedger.Update> after = new EnumMap<>(ThrottleSide.class);
            ledgers.forEach((side, l) -> after.put(side, l.update()));
            for (ThrottleEdit e : request) {
                Optional<Throwable> failure = answers.getOrDefault(
                        e.op().resource(),
                        Optional.of(new IllegalStateException("no answer for " + e.op().resource())));
                ThrottleLedger.Update u = after.get(e.side());
                if (failure.isEmpty()) {
                    u.applyAll(e.after());
                    changes.add(e.description());
                    landed.add(e.op().resource());
                } else if (failure.get() instanceof UnknownTopicOrPartitionException
                        && !listed.contains(e.op().resource().name())) {
                    String topic = e.op().resource().name();
                    u.apply(Change.forgetEntries(topic)).apply(Change.forgetAll(topic));
                    notes.add("topic " + topic + " no longer exists: pacing's entries on it went with it");
                } else if (failure.get() instanceof AuthorizationException
                        && e.op().resource().type() == ConfigResource.Type.BROKER) {
                    denied = failure;
                    unconfirmed.add(key(e));
                } else {
                    failures.add(e.description() + ": " + ThrottleReading.describe(failure.get()));
                    unconfirmed.add(key(e));
                }
            }
            for (ThrottleLedger.Update u : after.values()) {
                u.commit();
            }
        }
        if (denied.isPresent()) {
            throw new ExecutionException("incrementalAlterConfigs denied", denied.get());
        }
        return new Applied(changes, failures, landed);
    }

    /**
     * Reads back what pacing changed and records what the read shows landed: a rate, entries or a {@code *} of its own
     * now seen, removals now seen done. Why: until a read shows a change, pacing takes a read without it as one that
     * lags, never as someone else's change (which would leave the change unowned when it shows). Reading back at once
     * keeps that window to the moment between the request and this read; a change someone makes after it is theirs.
     * The broker that answers may lag the request, so what Kafka confirmed ({@code landed}) and no read shows yet is
     * read again, up to {@link #READ_BACKS_AGAIN} times.
     */
    private void confirmLanded(Set<Integer> active, Set<ConfigResource> landed)
            throws InterruptedException, ExecutionException, TimeoutException {
        Set<BrokerScope> scopes =
                unseenScopes(sc -> sc.isClusterDefault() || active.contains(Integer.parseInt(sc.brokerId())));
        Set<String> topics = unseenTopics(t -> true);
        for (int again = 0; !scopes.isEmpty() || !topics.isEmpty(); again++) {
            if (again > 0) {
                time.sleep(READ_BACK_PAUSE_MS);
            }
            recordSeen(throttles.describeEach(scopes, topics, limits.describeBatch()), scopes, topics);
            if (again == READ_BACKS_AGAIN) {
                return;
            }
            Set<BrokerScope> asked = scopes;
            Set<String> askedTopics = topics;
            scopes = unseenScopes(sc -> asked.contains(sc) && landed.contains(sc.resource()));
            topics = unseenTopics(
                    t -> askedTopics.contains(t) && landed.contains(new ConfigResource(ConfigResource.Type.TOPIC, t)));
        }
    }

    /** The rate scopes, of either side's ledger, with a change of pacing's no read has shown yet. */
    private Set<BrokerScope> unseenScopes(Predicate<BrokerScope> which) {
        Set<BrokerScope> out = new HashSet<>();
        ledgers.values()
                .forEach(l -> l.unseenRateScopes().stream().filter(which).forEach(out::add));
        return out;
    }

    /** The topics, of either side's ledger, with a change of pacing's no read has shown yet. */
    private Set<String> unseenTopics(Predicate<String> which) {
        Set<String> out = new TreeSet<>();
        ledgers.values().forEach(l -> l.unseenTopics().stream().filter(which).forEach(out::add));
        return out;
    }

    /** Records what one read-back shows of pacing's changes on {@code scopes} and {@code topics}. */
    private void recordSeen(ThrottleReading now, Set<BrokerScope> scopes, Set<String> topics)
            throws InterruptedException, ExecutionException, TimeoutException {
        for (ThrottleSide side : ThrottleSide.values()) {
            ThrottleLedger l = ledgers.get(side);
            ThrottleLedger.Update u = l.update();
            for (BrokerScope sc : scopes) {
                Optional<ThrottleLedger.OwnedRate> o = l.rate(sc);
                if (o.isEmpty() || !o.get().unseen() || now.failure(sc).isPresent()) {
                    continue;
                }
                OptionalLong current = RatePlanner.current(now, side, sc);
                if (current.isPresent() && current.getAsLong() == o.get().ours()) {
                    u.apply(Change.ownRate(
                            sc,
                            new ThrottleLedger.OwnedRate(
                                    o.get().prior(), o.get().ours())));
                }
            }
            for (String topic : topics) {
                if (now.failure(topic).isPresent()) {
                    continue;
                }
                Optional<ThrottledReplicas> list = now.settings().replicas(side, topic);
                boolean star = list.isPresent() && list.get().all();
                l.all(topic)
                        .filter(a -> a.unseen() && star)
                        .ifPresent(a -> u.apply(Change.ownAll(topic, new ThrottleLedger.OwnedAll(a.prior(), false))));
                Optional<ThrottleLedger.OwnedEntries> owned = l.entries(topic);
                if (owned.isEmpty() || star) {
                    continue;
                }
                ThrottleLedger.OwnedEntries e = owned.get();
                Set<ThrottledReplicas.Replica> present = ThrottleLedger.sortedSet(
                        list.map(ThrottledReplicas::replicas).orElse(List.of()));
                Set<ThrottledReplicas.Replica> stillShown = ThrottleLedger.sortedSet(present);
                stillShown.retainAll(e.removed());
                stillShown.removeAll(e.added());
                boolean seen = e.unseen() && present.containsAll(e.added());
                if (seen || !stillShown.equals(e.removed())) {
                    u.apply(Change.ownEntries(
                            topic,
                            new ThrottleLedger.OwnedEntries(
                                    e.added(), e.listWasAbsent(), e.unseen() && !seen, stillShown)));
                }
            }
            if (!u.isEmpty()) {
                guard.checkActive("record what a read shows of pacing's changes");
                u.commit();
            }
        }
    }

    /** Records what a request adds to pacing's ownership, in each side's ledger, before it is sent. */
    private void record(List<ThrottleEdit> request, boolean before)
            throws InterruptedException, ExecutionException, TimeoutException {
        for (ThrottleSide side : ThrottleSide.values()) {
            ledgers.get(side)
                    .update()
                    .applyAll(request.stream()
                            .filter(e -> e.side() == side)
                            .flatMap(e -> (before ? e.before() : e.after()).stream())
                            .toList())
                    .commit();
        }
    }

    private static String key(ThrottleEdit e) {
        return e.op().resource() + "/" + e.op().key();
    }

    /**
     * The edits in requests: phase by phase, each request at most {@link ThrottleReconciler.Limits#maxOpsPerRequest()} changes and
     * {@link ThrottleReconciler.Limits#MAX_REQUEST_VALUE_CHARS} characters of values, each key of a resource at most once.
     */
    private List<List<ThrottleEdit>> requests(List<ThrottleEdit> edits) {
        List<List<ThrottleEdit>> out = new ArrayList<>();
        List<ThrottleEdit> current = new ArrayList<>();
        Set<String> keys = new HashSet<>();
        long chars = 0;
        ThrottleEdit.Phase phase = null;
        for (ThrottleEdit e : edits) {
            String key = e.op().resource() + "/" + e.op().key();
            boolean full = current.size() >= limits.maxOpsPerRequest()
                    || chars + e.op().valueChars() > ThrottleReconciler.Limits.MAX_REQUEST_VALUE_CHARS;
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
