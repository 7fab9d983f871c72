package io.leaderpacer.agent.pacing;

import io.leaderpacer.agent.pacing.ThrottleEdit.Phase;
import io.leaderpacer.agent.pacing.ThrottleLedger.Change;
import io.leaderpacer.agent.throttle.BrokerScope;
import io.leaderpacer.agent.throttle.ThrottleOp;
import io.leaderpacer.agent.throttle.ThrottleReading;
import io.leaderpacer.agent.throttle.ThrottleSide;
import io.leaderpacer.agent.throttle.ThrottledReplicas;
import io.leaderpacer.agent.throttle.ThrottledReplicas.Replica;

import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * Decides, from what one look read, the throttle changes that bring the cluster to a {@link ThrottlePlan} while
 * keeping what others set: a pure function of the plan, the reading and the ledger, with no I/O, so that every rule
 * below is checked on hand-made cases and properties, and a dry run ({@code pacer plan}) shows exactly what a look
 * would send.
 *
 * <p>The rules, per value:
 * <ul>
 *   <li>A replica list: it appends the plan's entries that are missing (they become its own; one that was there is
 *       someone else's and stays theirs) and subtracts its own entries the plan no longer wants; it never sets a list
 *       it read a moment ago whole, which would drop an entry someone added meanwhile. A list set to {@code *} by
 *       someone else already covers everything: it adds nothing. An own entry someone removed is added again while
 *       the plan wants it. A list that was absent before is deleted when its last entry is pacing's to remove.</li>
 *   <li>A list whose entries would be longer than Kafka carries in a config value becomes {@code *}, recorded with
 *       the value it replaced, and is set back to exactly that value when the plan no longer wants any entry of it.
 *       Not while a cluster-default rate is in force (a paced broker is down, or someone set one): {@code *} would
 *       then throttle every broker's replicas of the topic at it. Then it lists the entries that fit, and a {@code *}
 *       of its own becomes that list again.</li>
 *   <li>A rate it did not set (someone else's) is never changed: pacing uses it and says so. A rate it set is kept at
 *       the plan's value; restored (deleted, or set back to the value it replaced) when the plan no longer wants it.
 *       If someone changes a rate it set to a third value, it stands back: that value is theirs now.</li>
 *   <li>A topic deleted since: what pacing owned on it went with it, and its records are forgotten. A value that could
 *       not be read (a broker that does not answer) is left for a later look, and the rest goes on.</li>
 * </ul>
 * A change the ledger records before it is sent and the cluster never got (refused, failed, cut short by a crash) is
 * recognised at the next look by the value still in place, and still restored: see {@link ThrottleEdit}.
 */
final class ReconcilePlanner {

    private final ThrottleLedger ledger;
    /** The side it plans: its ledger's. */
    private final ThrottleSide side;

    private final int maxListChars;
    /** The rate half of each plan. */
    private final RatePlanner rates;
    /** The entries of each list pacing sets by entries (not {@code *}). */
    private final EntryPlanner entryPlanner;

    ReconcilePlanner(ThrottleLedger ledger, int maxListChars) {
        this.ledger = ledger;
        this.side = ledger.side();
        this.maxListChars = Math.min(maxListChars, ThrottledReplicas.MAX_CONFIG_VALUE_CHARS);
        this.rates = new RatePlanner(ledger);
        this.entryPlanner = new EntryPlanner(side, this.maxListChars);
    }

    /**
     * What a look decided.
     *
     * @param forget ledger changes to record at once: records of values no longer in the cluster (a deleted topic, an
     *               entry someone removed, a change that never landed), which cover nothing any more
     * @param edits  the changes to send, in the order of their phases
     * @param notes  what it saw and left alone, for the log and {@code /status}
     * @param foreignRates per broker read whose rate on this side someone else set, that rate
     * @param foreignDefault the cluster-default rate on this side, when someone else set it
     * @param lists  per topic read, the entries someone else set, or {@code *}: on the follower side their in-sync
     *               replicas' bytes count on the broker's quota; on the leader side their leaders' quotas are theirs
     */
    record Planned(
            List<Change> forget,
            List<ThrottleEdit> edits,
            List<String> notes,
            Map<Integer, Long> foreignRates,
            OptionalLong foreignDefault,
            Map<String, ThrottledReplicas> lists) {
        Planned {
            forget = List.copyOf(forget);
            edits = List.copyOf(edits);
            notes = List.copyOf(notes);
            foreignRates = Map.copyOf(foreignRates);
            lists = Map.copyOf(lists);
        }
    }

    /**
     * @param plan   what pacing wants now
     * @param scopes the rate scopes read (the cluster default and the brokers that are up)
     * @param topics the topics read (the plan's, the ledger's and those the look watches)
     * @param now    what they hold
     * @param listed whether the look's own read of the cluster lists a topic: one it lists that a broker says does not
     *               exist was created moments ago (that broker lags), not deleted
     */
    Planned plan(
            ThrottlePlan plan,
            Collection<BrokerScope> scopes,
            Collection<String> topics,
            ThrottleReading now,
            Predicate<String> listed) {
        PlanDraft out = new PlanDraft(side);
        boolean follower = side == ThrottleSide.FOLLOWER;
        Map<Integer, Long> brokerRates =
                follower ? plan.brokerRates() : plan.leader().rates();
        OptionalLong defaultRate = follower ? plan.defaultRate() : OptionalLong.empty();
        Map<String, Set<Replica>> entries =
                follower ? plan.entries() : plan.leader().entries();
        boolean defaultRateInForce = defaultRate.isPresent() || rates.foreignDefaultRate(now);
        Map<String, ThrottledReplicas> lists = new TreeMap<>();
        for (String topic : topics) {
            if (now.gone(topic) && !listed.test(topic)) {
                gone(topic, out);
            } else if (now.failure(topic).isPresent()) {
                out.notes()
                        .add("topic " + topic + ": its throttle configs could not be read ("
                                + ThrottleReading.describe(now.failure(topic).get()) + "): left for the next look");
            } else {
                listed(topic, now, lists);
                if (emptiedListOfItsOwn(topic, entries, now, out)) {
                    continue;
                }
                topic(
                        topic,
                        entries.getOrDefault(topic, Set.of()),
                        now.settings().replicas(side, topic),
                        now.settings().rawReplicas(side, topic),
                        now.settings().blankReplicas(side, topic),
                        follower && !defaultRateInForce,
                        out);
            }
        }
        Map<Integer, Long> foreignRates = rates.plan(scopes, brokerRates, defaultRate, plan::tolerance, now, out);
        out.edits().sort(Comparator.comparing(ThrottleEdit::phase));
        return new Planned(out.forget(), out.edits(), out.notes(), foreignRates, rates.foreignDefault(now), lists);
    }

    /**
     * Adds what a topic's list read means for the quotas: the entries someone else set, or {@code *} (on the follower
     * side anyone's, which covers the broker's in-sync replicas; on the leader side theirs, whose leaders pacing must
     * leave to them).
     */
    private void listed(String topic, ThrottleReading now, Map<String, ThrottledReplicas> lists) {
        Optional<ThrottledReplicas> list = now.settings().replicas(side, topic);
        if (list.isEmpty()) {
            return;
        }
        if (list.get().all()) {
            // On the follower side a * of pacing's own covers in-sync replicas too, and stays while wanted.
            if (side == ThrottleSide.FOLLOWER || ledger.all(topic).isEmpty()) {
                lists.put(topic, ThrottledReplicas.ALL);
            }
            return;
        }
        // Pacing's own entries name only replicas out of their ISR; one back in it goes at this look.
        Set<Replica> theirs = ThrottleLedger.sortedSet(list.get().replicas());
        ledger.entries(topic).ifPresent(e -> {
            theirs.removeAll(e.added());
            theirs.removeAll(e.removed());
        });
        if (!theirs.isEmpty()) {
            lists.put(topic, ThrottledReplicas.of(theirs));
        }
    }

    /**
     * A list that was absent before pacing added to it and is now set to an empty value (its last entries subtracted
     * while an addition did not land): deleted, as it was, when the plan wants none of it. True when it planned that.
     */
    private boolean emptiedListOfItsOwn(
            String topic, Map<String, Set<Replica>> entries, ThrottleReading now, PlanDraft out) {
        Optional<ThrottleLedger.OwnedEntries> owned = ledger.entries(topic);
        if (owned.isEmpty()
                || !owned.get().listWasAbsent()
                || ledger.all(topic).isPresent()
                || !now.settings().blankReplicas(side, topic)
                || !entries.getOrDefault(topic, Set.of()).isEmpty()) {
            return false;
        }
        out.edit(
                ThrottleOp.clearReplicas(side, topic),
                Phase.REMOVE,
                List.of(),
                List.of(Change.forgetEntries(topic)),
                topic + " " + side.word() + " list removed (it was empty, and there was none)");
        return true;
    }

    /** A topic deleted since the look read the cluster: its configs went with it. */
    private void gone(String topic, PlanDraft out) {
        boolean owned = false;
        if (ledger.entries(topic).isPresent()) {
            out.forget().add(Change.forgetEntries(topic));
            owned = true;
        }
        if (ledger.all(topic).isPresent()) {
            out.forget().add(Change.forgetAll(topic));
            owned = true;
        }
        if (owned) {
            out.notes()
                    .add("topic " + topic + " no longer exists: pacing's " + side.word()
                            + " entries on it went with it");
        }
    }

    private void topic(
            String topic,
            Set<Replica> wanted,
            Optional<ThrottledReplicas> list,
            Optional<String> raw,
            boolean blank,
            boolean starAllowed,
            PlanDraft out) {
        Optional<ThrottleLedger.OwnedAll> star = ledger.all(topic);
        Optional<ThrottleLedger.OwnedEntries> entries = ledger.entries(topic);
        boolean isStar = list.isPresent() && list.get().all();
        if (star.isPresent() && isStar) {
            starInForce(topic, wanted, star.get(), entries, starAllowed, out);
            return;
        }
        if (star.isPresent()
                && star.get().unseen()
                && !(list.isPresent() && list.get().all())
                && !sameList(withoutOwn(list, entries), star.get().prior())) {
            // A * it sent that no read has shown, and a list that is not the one it replaced either: someone changed
            // the list meanwhile (a stale read would show the value replaced).
            starOverridden(topic, list, out);
            star = Optional.empty();
        }
        if (star.isPresent() && star.get().unseen()) {
            // A * it sent that no read has shown: not landed (refused, failed, cut short), or a stale read. Its entries
            // stay its own; the * is sent again while wanted, and its restore (the value it replaced) is right either
            // way.
            if (!wanted.isEmpty() && starAllowed) {
                out.edit(
                        ThrottleOp.setReplicas(side, topic, ThrottledReplicas.ALL),
                        Phase.ADD,
                        List.of(),
                        List.of(),
                        topic + " " + side.word() + " list -> * (again: not seen yet)");
                return;
            }
            ownedStar(topic, wanted, star.get(), entries, starAllowed, out);
            return;
        }
        if (star.isPresent()) {
            // A * it saw is gone: its own restore or conversion landed (the entries record says which), or someone
            // changed the list, which is theirs then.
            out.forget().add(Change.forgetAll(topic));
            if (entries.isEmpty() && !sameList(list, star.get().prior())) {
                out.notes()
                        .add("topic " + topic + ": someone changed the " + side.word() + " list pacing set to * (now "
                                + list.map(ThrottledReplicas::configValue).orElse("none") + "): that list is theirs");
            }
        }
        entryPlanner.plan(topic, wanted, list, raw, blank, entries, starAllowed, out);
    }

    /**
     * The list is the {@code *} pacing set: now seen, so owned as seen; its entries a read has shown went under it and
     * are forgotten. Entries no read has shown yet stay its own: a list it set in place of the * may have landed, and
     * this read may lag it.
     */
    private void starInForce(
            String topic,
            Set<Replica> wanted,
            ThrottleLedger.OwnedAll star,
            Optional<ThrottleLedger.OwnedEntries> entries,
            boolean starAllowed,
            PlanDraft out) {
        if (star.unseen()) {
            out.forget().add(Change.ownAll(topic, new ThrottleLedger.OwnedAll(star.prior(), false)));
        }
        Optional<ThrottleLedger.OwnedEntries> stillOwn = entries;
        if (entries.isPresent() && !entries.get().unseen()) {
            // Its entries went under the * it set.
            out.forget().add(Change.forgetEntries(topic));
            stillOwn = Optional.empty();
        }
        ownedStar(topic, wanted, star, stillOwn, starAllowed, out);
    }

    /**
     * Someone changed the list while pacing was setting it to {@code *}: the list is theirs now, as a rate changed to a
     * third value is, and the * is not sent over it; pacing forgets the * and adds its entries to their list.
     */
    private void starOverridden(String topic, Optional<ThrottledReplicas> list, PlanDraft out) {
        out.forget().add(Change.forgetAll(topic));
        out.notes()
                .add("topic " + topic + ": someone changed the " + side.word() + " list while pacing was setting it"
                        + " to * (now "
                        + list.map(ThrottledReplicas::configValue).orElse("none")
                        + "): that list is theirs, and pacing adds its entries to it");
    }

    /**
     * A list pacing set to {@code *}: kept while the plan wants any entry of the topic and no cluster-default rate is
     * in force; set back to exactly the value it replaced when the plan wants none; made the list of the entries that
     * fit, with the value it replaced, while a cluster-default rate is in force.
     */
    private void ownedStar(
            String topic,
            Set<Replica> wanted,
            ThrottleLedger.OwnedAll owned,
            Optional<ThrottleLedger.OwnedEntries> entries,
            boolean starAllowed,
            PlanDraft out) {
        if (wanted.isEmpty()) {
            restoreStar(topic, owned, entries, out);
        } else if (!starAllowed) {
            listInPlaceOfStar(topic, wanted, owned, entries, out);
        }
    }

    /** The plan wants no entry of the topic: the list pacing set to {@code *} goes back to exactly what it replaced. */
    private void restoreStar(
            String topic, ThrottleLedger.OwnedAll owned, Optional<ThrottleLedger.OwnedEntries> entries, PlanDraft out) {
        Optional<ThrottledReplicas> prior = owned.prior().map(ThrottledReplicas::parse);
        ThrottleOp op = prior.isPresent() && !prior.get().isEmpty()
                ? ThrottleOp.setRawReplicas(side, topic, owned.prior().get())
                // An empty list and no list throttle the same replicas (none); a SET takes no empty value.
                : ThrottleOp.clearReplicas(side, topic);
        // Entries of its own that the * never replaced (it did not land) go with the restore: until a read shows
        // them gone, a read that still shows them lags.
        Change left = entries.filter(e -> !e.added().isEmpty())
                .map(e -> Change.ownEntries(
                        topic,
                        new ThrottleLedger.OwnedEntries(Set.of(), owned.prior().isEmpty(), false, e.added())))
                .orElse(Change.forgetEntries(topic));
        out.edit(
                op,
                Phase.REMOVE,
                List.of(),
                List.of(left, Change.forgetAll(topic)),
                topic + " " + side.word() + " list restored to "
                        + prior.map(ThrottledReplicas::configValue)
                                .filter(v -> !v.isEmpty())
                                .orElse("none"));
    }

    /**
     * A cluster-default rate is in force, under which {@code *} would throttle every broker's replicas of the topic:
     * the list becomes the value it replaced and the entries that fit after it.
     */
    private void listInPlaceOfStar(
            String topic,
            Set<Replica> wanted,
            ThrottleLedger.OwnedAll owned,
            Optional<ThrottleLedger.OwnedEntries> entries,
            PlanDraft out) {
        Optional<ThrottledReplicas> prior = owned.prior().map(ThrottledReplicas::parse);
        List<Replica> others = prior.map(ThrottledReplicas::replicas).orElse(List.of());
        List<Replica> fit = ThrottledReplicas.fitting(others, ThrottleLedger.sortedSet(wanted), maxListChars);
        Set<Replica> ours = ThrottleLedger.sortedSet(fit);
        others.forEach(ours::remove);
        // The value it replaced, character for character, then its own entries: a later SUBTRACT of them leaves the
        // value exactly as it was.
        String kept =
                owned.prior().filter(v -> !ThrottledReplicas.parse(v).isEmpty()).orElse("");
        String value = ours.isEmpty()
                ? kept
                : (kept.isEmpty() ? "" : kept + ",")
                        + ThrottledReplicas.of(ours).configValue();
        ThrottleOp op =
                value.isEmpty() ? ThrottleOp.clearReplicas(side, topic) : ThrottleOp.setRawReplicas(side, topic, value);
        boolean absent = owned.prior().isEmpty();
        // The list set whole replaces any entries of its own from before: they stay its own until it lands, and
        // after that, until a read shows them gone, a read that still shows them lags.
        Set<Replica> before = ThrottleLedger.sortedSet(
                entries.map(ThrottleLedger.OwnedEntries::added).orElse(Set.of()));
        Set<Replica> replaced = ThrottleLedger.sortedSet(before);
        replaced.addAll(entries.map(ThrottleLedger.OwnedEntries::removed).orElse(Set.of()));
        replaced.removeAll(ours);
        Set<Replica> owning = ThrottleLedger.sortedSet(before);
        owning.addAll(ours);
        out.edit(
                op,
                Phase.ADD,
                List.of(Change.ownEntries(
                        topic,
                        new ThrottleLedger.OwnedEntries(
                                owning,
                                absent,
                                true,
                                entries.map(ThrottleLedger.OwnedEntries::removed)
                                        .orElse(Set.of())))),
                List.of(
                        Change.forgetAll(topic),
                        Change.ownEntries(topic, new ThrottleLedger.OwnedEntries(ours, absent, true, replaced))),
                topic + " " + side.word() + " list * -> " + ThrottledReplicas.brief(ThrottleLedger.sortedSet(fit))
                        + " (a cluster-default rate is in force)");
        out.notes()
                .add("topic " + topic + ": " + ours.size() + " of " + wanted.size() + " " + side.word() + " entries"
                        + " listed in place of *: a cluster-default rate is in force, under which * would throttle every"
                        + " broker's replicas of it");
    }

    /** The list read less pacing's own entries (those it added, and those it removed that a read may still show). */
    private static Optional<ThrottledReplicas> withoutOwn(
            Optional<ThrottledReplicas> list, Optional<ThrottleLedger.OwnedEntries> own) {
        if (list.isEmpty() || list.get().all() || own.isEmpty()) {
            return list;
        }
        Set<Replica> theirs = ThrottleLedger.sortedSet(list.get().replicas());
        theirs.removeAll(own.get().added());
        theirs.removeAll(own.get().removed());
        return Optional.of(ThrottledReplicas.of(theirs));
    }

    /** Whether a list (not {@code *}) holds the same entries as a recorded value (none and empty alike). */
    private static boolean sameList(Optional<ThrottledReplicas> list, Optional<String> recorded) {
        Set<Replica> a =
                ThrottleLedger.sortedSet(list.map(ThrottledReplicas::replicas).orElse(List.of()));
        Set<Replica> b = ThrottleLedger.sortedSet(
                recorded.map(v -> ThrottledReplicas.parse(v).replicas()).orElse(List.of()));
        return a.equals(b);
    }
}
