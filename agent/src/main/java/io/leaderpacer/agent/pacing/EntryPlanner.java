package io.leaderpacer.agent.pacing;

import io.leaderpacer.agent.pacing.ThrottleEdit.Phase;
import io.leaderpacer.agent.pacing.ThrottleLedger.Change;
import io.leaderpacer.agent.throttle.ThrottleOp;
import io.leaderpacer.agent.throttle.ThrottleSide;
import io.leaderpacer.agent.throttle.ThrottledReplicas;
import io.leaderpacer.agent.throttle.ThrottledReplicas.Replica;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The entry half of {@link ReconcilePlanner}'s plan for a replica list that is not {@code *} of pacing's own: it
 * appends the plan's entries that are missing and subtracts its own the plan no longer wants, never setting a list it
 * read a moment ago whole (that would drop an entry someone added meanwhile); where the entries would not fit Kafka's
 * limit on a config value, the list becomes {@code *} (when allowed) or holds those that fit. Pure, as the planner.
 */
final class EntryPlanner {

    /** The side it plans. */
    private final ThrottleSide side;

    /** The longest value a list may take, in characters. */
    private final int maxListChars;

    EntryPlanner(ThrottleSide side, int maxListChars) {
        this.side = side;
        this.maxListChars = maxListChars;
    }

    /**
     * A list pacing sets by entries: its own entries appended where the plan wants them and subtracted where it no
     * longer does, others' entries left as they are; {@code *} where they would not fit Kafka's limit and {@code *} is
     * allowed.
     */
    void plan(
            String topic,
            Set<Replica> wantedByPlan,
            Optional<ThrottledReplicas> current,
            Optional<String> raw,
            boolean blank,
            Optional<ThrottleLedger.OwnedEntries> owned,
            boolean starAllowed,
            PlanDraft out) {
        Set<Replica> ours = ThrottleLedger.sortedSet(
                owned.map(ThrottleLedger.OwnedEntries::added).orElse(Set.of()));
        boolean unseen = owned.map(ThrottleLedger.OwnedEntries::unseen).orElse(false);
        if (current.isPresent() && current.get().all()) {
            if (!ours.isEmpty() && !unseen) {
                out.notes()
                        .add("topic " + topic + ": someone set its " + side.word() + " list to *: pacing's entries are"
                                + " covered and no longer its own");
                out.forget().add(Change.forgetEntries(topic));
            }
            return;
        }
        ListRead read = ListRead.of(current, blank, owned, ours);
        Optional<Set<Replica>> wanted = fitting(topic, wantedByPlan, read, raw, ours, starAllowed, out);
        if (wanted.isPresent()) {
            entryEdits(topic, wanted.get(), read, ours, owned, out);
        }
    }

    /**
     * What a read of a list shows against pacing's own entries.
     *
     * @param present       the entries shown, less those pacing removed that the read still shows
     * @param staleShown    entries pacing removed that the read still shows: a read that lags the removal, for those
     * @param others        the entries shown that are not pacing's: someone else's
     * @param listWasAbsent the list was absent before pacing's first entry, or is now: absent is what to leave
     */
    private record ListRead(Set<Replica> present, Set<Replica> staleShown, Set<Replica> others, boolean listWasAbsent) {

        static ListRead of(
                Optional<ThrottledReplicas> current,
                boolean blank,
                Optional<ThrottleLedger.OwnedEntries> owned,
                Set<Replica> ours) {
            Set<Replica> present = ThrottleLedger.sortedSet(
                    current.map(ThrottledReplicas::replicas).orElse(List.of()));
            Set<Replica> staleShown = ThrottleLedger.sortedSet(present);
            staleShown.retainAll(owned.map(ThrottleLedger.OwnedEntries::removed).orElse(Set.of()));
            present.removeAll(staleShown);
            boolean recordedAbsent =
                    owned.map(ThrottleLedger.OwnedEntries::listWasAbsent).orElse(false);
            boolean absentNow =
                    (current.isEmpty() && !blank) || (recordedAbsent && present.isEmpty() && !staleShown.isEmpty());
            Set<Replica> others = ThrottleLedger.sortedSet(present);
            others.removeAll(ours);
            // A list absent now holds nothing of anyone's: whatever it was before, absent is what to leave.
            return new ListRead(present, staleShown, others, absentNow || recordedAbsent);
        }
    }

    /**
     * The entries to list: every one the plan wants where the list would stay within Kafka's limit on a config value;
     * else none (the list is set to {@code *} here) where {@code *} is allowed, or those that fit, with a note.
     */
    private Optional<Set<Replica>> fitting(
            String topic,
            Set<Replica> wantedByPlan,
            ListRead read,
            Optional<String> raw,
            Set<Replica> ours,
            boolean starAllowed,
            PlanDraft out) {
        Set<Replica> needed = ThrottleLedger.sortedSet(read.others());
        needed.addAll(wantedByPlan);
        int neededChars = ThrottledReplicas.length(needed);
        if (neededChars <= maxListChars) {
            return Optional.of(wantedByPlan);
        }
        if (starAllowed) {
            Set<Replica> notTheirs = ThrottleLedger.sortedSet(ours);
            notTheirs.addAll(read.staleShown());
            Optional<String> prior = read.listWasAbsent() && read.others().isEmpty()
                    ? Optional.empty()
                    : Optional.of(priorValue(raw, notTheirs));
            out.edit(
                    ThrottleOp.setReplicas(side, topic, ThrottledReplicas.ALL),
                    Phase.ADD,
                    List.of(Change.ownAll(topic, new ThrottleLedger.OwnedAll(prior, true))),
                    List.of(),
                    topic + " " + side.word() + " list -> * (its " + needed.size() + " entries would make "
                            + neededChars + " characters; Kafka carries at most " + maxListChars + ")");
            return Optional.empty();
        }
        Set<Replica> wanted =
                ThrottleLedger.sortedSet(ThrottledReplicas.fitting(read.others(), wantedByPlan, maxListChars));
        wanted.retainAll(wantedByPlan);
        out.notes()
                .add("topic " + topic + ": " + wanted.size() + " of " + wantedByPlan.size() + " " + side.word()
                        + " entries listed: all would make " + neededChars + " characters, over Kafka's limit of "
                        + maxListChars
                        + " for a config value, and * would throttle every broker's replicas of it at the"
                        + " cluster-default rate in force; the rest are throttled once the broker is up (the list then"
                        + " becomes *)");
        return Optional.of(wanted);
    }

    /**
     * The edits that make pacing's entries of a list {@code wanted}: an append of those missing, a subtract of those
     * no longer wanted (or the list removed, where it was absent and nothing else is left), each with its ledger
     * records; or only the ledger's record brought up to date.
     */
    private void entryEdits(
            String topic,
            Set<Replica> wanted,
            ListRead read,
            Set<Replica> ours,
            Optional<ThrottleLedger.OwnedEntries> owned,
            PlanDraft out) {
        Set<Replica> present = read.present();
        Set<Replica> staleShown = read.staleShown();
        boolean listWasAbsent = read.listWasAbsent();
        // Its own entries missing from the read are never taken as gone: a read can lag a change Kafka confirmed.
        // Those it wants are appended again, those it does not are subtracted; both are no-ops where they already are.
        Set<Replica> add = ThrottleLedger.sortedSet(wanted);
        add.removeAll(present);
        // An entry wanted again while its removal may still be pending is appended, so it is there whatever the read
        // lagged: it is no longer a pending removal, or every later read showing it would append it again.
        staleShown.removeAll(add);
        Set<Replica> remove = ThrottleLedger.sortedSet(ours);
        remove.removeAll(wanted);
        Set<Replica> oursNext = ThrottleLedger.sortedSet(ours);
        oursNext.retainAll(wanted);
        oursNext.addAll(add);
        Set<Replica> left = ThrottleLedger.sortedSet(present);
        left.removeAll(remove);
        left.addAll(add);
        boolean unseenNext = !present.containsAll(oursNext);
        Change next = Change.ownEntries(
                topic, new ThrottleLedger.OwnedEntries(oursNext, listWasAbsent, unseenNext, staleShown));
        if (!add.isEmpty()) {
            Set<Replica> owning = ThrottleLedger.sortedSet(ours);
            owning.addAll(add);
            out.edit(
                    ThrottleOp.addReplicas(side, topic, add),
                    Phase.ADD,
                    List.of(Change.ownEntries(
                            topic, new ThrottleLedger.OwnedEntries(owning, listWasAbsent, true, staleShown))),
                    remove.isEmpty() ? List.of(next) : List.of(),
                    topic + " " + side.word() + " list + " + ThrottledReplicas.brief(add));
        }
        if (!remove.isEmpty()) {
            Set<Replica> pending = ThrottleLedger.sortedSet(staleShown);
            pending.addAll(remove);
            Change removed = Change.ownEntries(
                    topic, new ThrottleLedger.OwnedEntries(oursNext, listWasAbsent, unseenNext, pending));
            if (left.isEmpty() && listWasAbsent) {
                out.edit(
                        ThrottleOp.clearReplicas(side, topic),
                        Phase.REMOVE,
                        List.of(),
                        List.of(removed),
                        topic + " " + side.word() + " list removed (there was none)");
            } else {
                // Also where the read shows no list: it may lag (then the entries are there), and a SUBTRACT of
                // entries that are not there changes nothing but an absent list into an empty one.
                out.edit(
                        ThrottleOp.removeReplicas(side, topic, remove),
                        Phase.REMOVE,
                        List.of(),
                        List.of(removed),
                        topic + " " + side.word() + " list - " + ThrottledReplicas.brief(remove));
            }
        } else if (add.isEmpty()
                && owned.isPresent()
                && !owned.get()
                        .equals(new ThrottleLedger.OwnedEntries(oursNext, listWasAbsent, unseenNext, staleShown))) {
            out.forget().add(next);
        }
    }

    /**
     * The list's value without pacing's entries, as it is to be put back: the value as written, less pacing's entries,
     * as Kafka's own {@code SUBTRACT} would leave it (an operator's {@code "0:1, 1:2"} stays so).
     */
    private static String priorValue(Optional<String> raw, Set<Replica> ours) {
        if (raw.isEmpty()) {
            return "";
        }
        List<String> kept = new ArrayList<>();
        for (String part : raw.get().split(",")) {
            String p = part.trim();
            if (p.isEmpty()
                    || !ours.contains(ThrottledReplicas.parse(p).replicas().get(0))) {
                kept.add(part);
            }
        }
        return String.join(",", kept);
    }
}
