package io.leaderpacer.agent.pacing;

import io.leaderpacer.agent.coordination.ActionGuard;
import io.leaderpacer.agent.throttle.BrokerScope;
import io.leaderpacer.agent.throttle.ReplicationThrottles;
import io.leaderpacer.agent.throttle.ThrottleChange;
import io.leaderpacer.agent.throttle.ThrottleRate;
import io.leaderpacer.agent.throttle.ThrottleSettings;
import io.leaderpacer.agent.throttle.ThrottleSide;
import io.leaderpacer.agent.throttle.ThrottledReplicas;
import io.leaderpacer.agent.throttle.ThrottledReplicas.Replica;
import org.apache.kafka.clients.admin.ConfigEntry;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

/**
 * Brings the cluster's follower throttle to a {@link ThrottlePlan} while keeping what others set: it reads what is
 * there, changes only what it owns (per its {@link ThrottleLedger}), records what it is about to change before it
 * changes it, and restores what it owned and no longer needs to exactly the value it found.
 *
 * <p>The rules, per value:
 * <ul>
 *   <li>A replica list: it adds the plan's entries that are missing (they become its own; one that was there is
 *       someone else's and stays theirs) and removes its own entries the plan no longer wants. A list set to
 *       {@code *} by someone else already covers everything: it adds nothing. An own entry someone removed is added
 *       again while the plan wants it.</li>
 *   <li>A list whose entries would be longer than Kafka carries in a config value
 *       ({@link ThrottledReplicas#MAX_CONFIG_VALUE_CHARS}; a topic of about 4,000 partitions or more) becomes
 *       {@code *}, recorded with the value it replaced, and is set back to exactly that value when the plan no longer
 *       wants any entry of it; someone who changes that {@code *} makes the list theirs. Not while a cluster-default
 *       rate is in force (a paced broker is down, or someone set one): {@code *} would then throttle every broker's
 *       replicas of the topic at it. Then it lists the entries that fit, in partition order, and says so; the list
 *       becomes {@code *} at the first look after the broker is up.</li>
 *   <li>A rate it did not set (someone else's) is never changed: pacing uses it and says so. A rate it set is kept at
 *       the plan's value; restored (deleted, or set back to the value it replaced) when the plan no longer wants it.
 *       If someone changes a rate it set to a third value, it stands back: that value is theirs now.</li>
 * </ul>
 * A per-broker value of a broker that is down cannot be read or written (Kafka sends it to that broker): it is left
 * for a later look.
 */
final class ThrottleReconciler {

    private static final ThrottleSide F = ThrottleSide.FOLLOWER;
    /** How many entries a log line names. */
    private static final int BRIEF = 8;

    private final ReplicationThrottles throttles;
    private final ThrottleLedger ledger;
    private final ActionGuard guard;
    private final int maxListChars;

    ThrottleReconciler(ReplicationThrottles throttles, ThrottleLedger ledger, ActionGuard guard) {
        this(throttles, ledger, guard, ThrottledReplicas.MAX_CONFIG_VALUE_CHARS);
    }

    /** With a shorter limit on a list's length than Kafka's: for tests on topics of a few partitions. */
    ThrottleReconciler(ReplicationThrottles throttles, ThrottleLedger ledger, ActionGuard guard, int maxListChars) {
        this.throttles = throttles;
        this.ledger = ledger;
        this.guard = guard;
        this.maxListChars = Math.min(maxListChars, ThrottledReplicas.MAX_CONFIG_VALUE_CHARS);
    }

    /** What a reconciliation did and saw: notes for the log and /status; never the cause of a failure. */
    record Outcome(List<String> changes, List<String> notes) {
        Outcome {
            changes = List.copyOf(changes);
            notes = List.copyOf(notes);
        }
    }

    /**
     * Brings the cluster to the plan.
     *
     * @param active the brokers that are up: only their per-broker values can be read and written
     * @throws ExecutionException when Kafka refused a read or a change (the cause says why, e.g. not authorized)
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
        ThrottleSettings now = throttles.describe(scopes, topics);

        ThrottleChange change = throttles.change();
        ThrottleLedger.Update before = ledger.update();
        ThrottleLedger.Update after = ledger.update();
        List<String> changes = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        boolean defaultRateInForce = plan.defaultRate().isPresent() || foreignDefaultRate(now);
        for (String topic : topics) {
            Optional<ThrottledReplicas> list = now.replicas(F, topic);
            Set<Replica> wanted = plan.entries().getOrDefault(topic, Set.of());
            Optional<ThrottleLedger.OwnedAll> star = ledger.all(topic);
            if (star.isPresent()) {
                ownedStar(topic, wanted, list, star.get(), change, after, changes, notes);
            } else {
                lists(topic, wanted, list, !defaultRateInForce, change, before, after, changes, notes);
            }
        }
        for (BrokerScope scope : scopes) {
            OptionalLong wanted = scope.isClusterDefault() ? plan.defaultRate()
                    : Optional.ofNullable(plan.brokerRates().get(Integer.parseInt(scope.brokerId())))
                            .map(OptionalLong::of).orElse(OptionalLong.empty());
            rate(scope, wanted, current(now, scope), change, before, after, changes, notes);
        }
        if (dry) {
            return new Outcome(changes, notes);
        }
        if (!changes.isEmpty()) {
            before.commit();
            guard.checkActive("alter follower throttle configs: " + String.join("; ", changes));
            change.apply();
        }
        after.commit();
        return new Outcome(changes, notes);
    }

    /** Restores everything it owns that can be restored now (brokers that are up); what is left waits. */
    Outcome restoreAll(Set<Integer> active) throws InterruptedException, ExecutionException, TimeoutException {
        return reconcile(ThrottlePlan.NONE, active);
    }

    boolean ownsNothing() {
        return ledger.isEmpty();
    }

    private void lists(String topic, Set<Replica> wantedByPlan, Optional<ThrottledReplicas> current, boolean starAllowed,
                       ThrottleChange change, ThrottleLedger.Update before, ThrottleLedger.Update after,
                       List<String> changes, List<String> notes) {
        Optional<ThrottleLedger.OwnedEntries> owned = ledger.entries(topic);
        Set<Replica> ours = ThrottleLedger.sortedSet(owned.map(ThrottleLedger.OwnedEntries::added).orElse(Set.of()));
        if (current.isPresent() && current.get().all()) {
            if (!ours.isEmpty()) {
                notes.add("topic " + topic + ": someone set its follower list to *: pacing's entries are covered and"
                        + " no longer its own");
                after.forgetEntries(topic);
            }
            return;
        }
        Set<Replica> present = ThrottleLedger.sortedSet(current.map(ThrottledReplicas::replicas).orElse(List.of()));
        boolean listWasAbsent = owned.map(ThrottleLedger.OwnedEntries::listWasAbsent).orElse(current.isEmpty());
        Set<Replica> others = ThrottleLedger.sortedSet(present);
        others.removeAll(ours);
        Set<Replica> needed = ThrottleLedger.sortedSet(others);
        needed.addAll(wantedByPlan);
        Set<Replica> wanted = wantedByPlan;
        int neededChars = ThrottledReplicas.length(needed);
        if (neededChars > maxListChars) {
            if (starAllowed) {
                // Recorded before the change: a crash right after it leaves the * known as pacing's.
                before.ownAll(topic, new ThrottleLedger.OwnedAll(listWasAbsent && others.isEmpty() ? Optional.empty()
                        : Optional.of(ThrottledReplicas.of(others).configValue())));
                before.forgetEntries(topic);
                change.setReplicas(F, topic, ThrottledReplicas.ALL);
                changes.add(topic + " follower list -> * (its " + needed.size() + " entries would make "
                        + neededChars + " characters; Kafka carries at most " + maxListChars + ")");
                return;
            }
            wanted = ThrottleLedger.sortedSet(ThrottledReplicas.fitting(others, wantedByPlan, maxListChars));
            wanted.retainAll(wantedByPlan);
            notes.add("topic " + topic + ": " + wanted.size() + " of " + wantedByPlan.size() + " follower entries"
                    + " listed: all would make " + neededChars + " characters, over Kafka's limit of "
                    + maxListChars + " for a config value, and * would throttle every broker's replicas of it at the"
                    + " cluster-default rate in force; the rest are throttled once the broker is up (the list then"
                    + " becomes *)");
        }
        Set<Replica> add = ThrottleLedger.sortedSet(wanted);
        add.removeAll(present);
        Set<Replica> remove = ThrottleLedger.sortedSet(ours);
        remove.removeAll(wanted);
        remove.retainAll(present);
        Set<Replica> oursNext = ThrottleLedger.sortedSet(ours);
        oursNext.retainAll(wanted);
        oursNext.addAll(add);
        Set<Replica> left = ThrottleLedger.sortedSet(present);
        left.removeAll(remove);
        left.addAll(add);
        if (!add.isEmpty()) {
            // Recorded before the change, so a crash right after it leaves the entries known as pacing's.
            Set<Replica> owning = ThrottleLedger.sortedSet(ours);
            owning.addAll(add);
            before.ownEntries(topic, new ThrottleLedger.OwnedEntries(owning, listWasAbsent));
        }
        if (!add.isEmpty() && !remove.isEmpty()) {
            // One key of a resource can change once per request: set the list to what it must become.
            change.setReplicas(F, topic, ThrottledReplicas.of(left));
            changes.add(topic + " follower list -> " + brief(left));
        } else if (!add.isEmpty()) {
            change.addReplicas(F, topic, add);
            changes.add(topic + " follower list + " + brief(add));
        } else if (!remove.isEmpty()) {
            if (left.isEmpty() && listWasAbsent) {
                change.clearReplicas(F, topic);
                changes.add(topic + " follower list removed (there was none)");
            } else {
                change.removeReplicas(F, topic, remove);
                changes.add(topic + " follower list - " + brief(remove));
            }
        }
        if (!oursNext.equals(ours)) {
            after.ownEntries(topic, new ThrottleLedger.OwnedEntries(oursNext, listWasAbsent));
        }
    }

    /**
     * A list pacing set to {@code *}: kept while the plan wants any entry of the topic, set back to exactly the value
     * it replaced when it wants none; left to whoever changed it.
     */
    private void ownedStar(String topic, Set<Replica> wanted, Optional<ThrottledReplicas> current,
                           ThrottleLedger.OwnedAll owned, ThrottleChange change, ThrottleLedger.Update after,
                           List<String> changes, List<String> notes) {
        if (current.isEmpty() || !current.get().all()) {
            notes.add("topic " + topic + ": someone changed the follower list pacing set to * (now "
                    + current.map(ThrottledReplicas::configValue).orElse("none") + "): pacing stands back from it");
            after.forgetAll(topic);
            return;
        }
        if (!wanted.isEmpty()) {
            return;
        }
        Optional<ThrottledReplicas> prior = owned.prior().map(ThrottledReplicas::parse);
        if (prior.isPresent() && !prior.get().isEmpty()) {
            change.setReplicas(F, topic, prior.get());
        } else {
            // An empty list and no list throttle the same replicas (none); Kafka's SET takes no empty value here.
            change.clearReplicas(F, topic);
        }
        changes.add(topic + " follower list restored to " + prior.map(ThrottledReplicas::configValue).orElse("none"));
        after.forgetAll(topic);
    }

    private void rate(BrokerScope scope, OptionalLong wanted, OptionalLong current, ThrottleChange change,
                      ThrottleLedger.Update before, ThrottleLedger.Update after, List<String> changes,
                      List<String> notes) {
        Optional<ThrottleLedger.OwnedRate> owned = ledger.rate(scope);
        String where = scope.isClusterDefault() ? "the cluster-default follower rate" : "broker " + scope.brokerId()
                + "'s follower rate";
        if (owned.isPresent()) {
            ThrottleLedger.OwnedRate o = owned.get();
            boolean ours = current.isPresent() && current.getAsLong() == o.ours();
            boolean reverted = current.equals(o.prior());
            if (!ours && !reverted) {
                notes.add(where + " was changed by someone else to " + text(current) + ": pacing stands back from it");
                after.forgetRate(scope);
                return;
            }
            if (wanted.isPresent()) {
                if (!ours || o.ours() != wanted.getAsLong()) {
                    before.ownRate(scope, new ThrottleLedger.OwnedRate(o.prior(), wanted.getAsLong()));
                    change.setRate(F, scope, wanted.getAsLong());
                    changes.add(where + " -> " + text(wanted));
                }
                return;
            }
            if (reverted) {
                after.forgetRate(scope);
                return;
            }
            if (o.prior().isPresent()) {
                change.setRate(F, scope, o.prior().getAsLong());
            } else {
                change.removeRate(F, scope);
            }
            changes.add(where + " restored to " + text(o.prior()));
            after.forgetRate(scope);
            return;
        }
        if (wanted.isEmpty()) {
            return;
        }
        if (current.isPresent()) {
            notes.add(where + " is " + text(current) + ", set by someone else: pacing uses it and does not change it");
            return;
        }
        before.ownRate(scope, new ThrottleLedger.OwnedRate(OptionalLong.empty(), wanted.getAsLong()));
        change.setRate(F, scope, wanted.getAsLong());
        changes.add(where + " -> " + text(wanted));
    }

    /** Whether a cluster-default rate is set that is not pacing's (pacing's goes in this same change when unwanted). */
    private boolean foreignDefaultRate(ThrottleSettings now) {
        OptionalLong set = current(now, BrokerScope.clusterDefault());
        return set.isPresent() && ledger.rate(BrokerScope.clusterDefault()).map(o -> o.ours() != set.getAsLong())
                .orElse(true);
    }

    /** The rate set in exactly this scope (a broker's value inherited from the default does not count). */
    private static OptionalLong current(ThrottleSettings now, BrokerScope scope) {
        Optional<ThrottleRate> r = now.rate(F, scope);
        if (r.isEmpty()) {
            return OptionalLong.empty();
        }
        ConfigEntry.ConfigSource source = r.get().source();
        boolean here = scope.isClusterDefault() ? source == ConfigEntry.ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG
                : source == ConfigEntry.ConfigSource.DYNAMIC_BROKER_CONFIG;
        return here ? OptionalLong.of(r.get().bytesPerSecond()) : OptionalLong.empty();
    }

    /** Entries for a log line: all of them when few, else how many and the first few (a list can hold thousands). */
    static String brief(Set<Replica> replicas) {
        if (replicas.size() <= BRIEF) {
            return ThrottledReplicas.of(replicas).configValue();
        }
        return replicas.size() + " entries " + ThrottledReplicas.of(replicas.stream().limit(BRIEF).toList()).configValue()
                + ",...";
    }

    static String text(OptionalLong rate) {
        return rate.isPresent() ? String.format(Locale.ROOT, "%.1f MiB/s", rate.getAsLong() / 1048576.0) : "none";
    }
}
