package io.leaderpacer.agent.pacing;

import io.leaderpacer.agent.throttle.BrokerScope;
import io.leaderpacer.agent.throttle.ThrottleSide;
import io.leaderpacer.agent.throttle.ThrottledReplicas;
import io.leaderpacer.engine.pacing.PacingMemory;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

/**
 * What catch-up pacing changed in the cluster, and what it found there before: the follower rates it set (with
 * the value each replaced), the replica-list entries it added to each topic (with whether the list existed), and
 * the lists it set to {@code *} (with the value each replaced).
 *
 * <p>Why a ledger: "restore exactly" and "never clobber someone else's throttle" need to know, for every value,
 * whose it is; and after a {@code kill -9} the next active instance must know it too. A record is written before
 * the change it describes, and deleted after the change is undone, so the ledger always covers what is in the
 * cluster (it may also cover a change that never reached it; restoring that one changes nothing).
 */
final class ThrottleLedger {

    /** The most older values of its own a rate record keeps (each change sent while another may still land). */
    static final int MAX_WAS = 4;

    /**
     * A rate pacing set.
     *
     * @param prior  the value it replaced in that scope; empty when none was set there
     * @param ours   the value it set, or is about to set
     * @param was    older values of its own that may still be what the scope holds or comes to hold: a change
     *               refused, failed, cut short by a crash, or timed out and landing late, leaves one of them, still
     *               pacing's to restore; newest last, at most {@value #MAX_WAS}
     * @param unseen whether no read has shown {@code ours} yet. Why: a broker answers from its own metadata, which can
     *               lag a change the controller confirmed, so until a read shows the new value, a read of an older one
     *               (the prior, or one in {@code was}) is taken as stale, never as someone else's change
     */
    record OwnedRate(OptionalLong prior, long ours, List<Long> was, boolean unseen) {

        OwnedRate {
            was = List.copyOf(was.size() > MAX_WAS ? was.subList(was.size() - MAX_WAS, was.size()) : was);
        }

        /** A rate pacing set and a read has shown. */
        OwnedRate(OptionalLong prior, long ours) {
            this(prior, ours, List.of(), false);
        }

        /** Whether the value in the scope now is pacing's: the one it set, one it set before, or a stale read. */
        boolean isOurs(OptionalLong current) {
            if (current.isPresent() && (current.getAsLong() == ours || was.contains(current.getAsLong()))) {
                return true;
            }
            return unseen && current.equals(prior);
        }

        /** The record for a change to {@code next}: what is in force now may stay or come back until {@code next} is seen. */
        OwnedRate changedTo(long next) {
            List<Long> older = new ArrayList<>(was);
            older.remove(Long.valueOf(next));
            if (ours != next && !older.contains(ours)) {
                older.add(ours);
            }
            return new OwnedRate(prior, next, older, true);
        }
    }

    /**
     * One change of the ledger's records, as a value: a throttle edit carries the changes to record before it is sent
     * and after it landed ({@link ThrottleEdit}). An empty {@code owned} forgets the record.
     */
    sealed interface Change {
        /** The rate record of a scope. */
        record Rate(BrokerScope scope, Optional<OwnedRate> owned) implements Change {}

        /** The entries record of a topic. */
        record Entries(String topic, Optional<OwnedEntries> owned) implements Change {}

        /** The {@code *} record of a topic. */
        record All(String topic, Optional<OwnedAll> owned) implements Change {}

        static Change ownRate(BrokerScope scope, OwnedRate rate) {
            return new Rate(scope, Optional.of(rate));
        }

        static Change forgetRate(BrokerScope scope) {
            return new Rate(scope, Optional.empty());
        }

        static Change ownEntries(String topic, OwnedEntries entries) {
            return new Entries(topic, entries.isEmpty() ? Optional.empty() : Optional.of(entries));
        }

        static Change forgetEntries(String topic) {
            return new Entries(topic, Optional.empty());
        }

        static Change ownAll(String topic, OwnedAll all) {
            return new All(topic, Optional.of(all));
        }

        static Change forgetAll(String topic) {
            return new All(topic, Optional.empty());
        }
    }

    /**
     * Entries pacing added to a topic's follower replica list.
     *
     * @param added          the entries it added (never one that was there before)
     * @param listWasAbsent  whether the topic had no list at all before: then the list is deleted when the last of
     *                       these entries goes, as it was
     * @param unseen         whether no read has shown them all yet (see {@link OwnedRate#unseen()}): meanwhile a read
     *                       without them is not taken as someone else's change
     * @param removed        entries it removed that a read has not yet shown gone: a read that still shows them is
     *                       stale for them, not someone else adding them (nor a list that was there before)
     */
    record OwnedEntries(
            Set<ThrottledReplicas.Replica> added,
            boolean listWasAbsent,
            boolean unseen,
            Set<ThrottledReplicas.Replica> removed) {
        OwnedEntries {
            added = Set.copyOf(added);
            removed = Set.copyOf(removed);
        }

        /** Entries a read has shown, nothing removed pending. */
        OwnedEntries(Set<ThrottledReplicas.Replica> added, boolean listWasAbsent) {
            this(added, listWasAbsent, false, Set.of());
        }

        /** Entries, nothing removed pending. */
        OwnedEntries(Set<ThrottledReplicas.Replica> added, boolean listWasAbsent, boolean unseen) {
            this(added, listWasAbsent, unseen, Set.of());
        }

        /** Whether it records nothing: no entry of pacing's, no removal pending. */
        boolean isEmpty() {
            return added.isEmpty() && removed.isEmpty();
        }
    }

    /**
     * A topic follower list pacing set to {@code *}: its entries would have been longer than Kafka carries in a
     * config value ({@link ThrottledReplicas#MAX_CONFIG_VALUE_CHARS}).
     *
     * @param prior  the list's value before, others' entries only; empty when the topic had no list
     * @param unseen whether no read has shown the {@code *} yet: meanwhile a read of the list before it is stale
     */
    record OwnedAll(Optional<String> prior, boolean unseen) {

        /** A {@code *} a read has shown. */
        OwnedAll(Optional<String> prior) {
            this(prior, false);
        }
    }

    private final LedgerStore store;
    /** Which side's values it records; the leader side's keys carry {@value #LEADER_PREFIX} in front. */
    private final ThrottleSide side;

    private final String prefix;
    /** The leader side's keys start with this; the follower side's keep the names they had before the leader side. */
    static final String LEADER_PREFIX = "leader-";

    private final Map<BrokerScope, OwnedRate> rates = new HashMap<>();
    private final Map<String, OwnedEntries> entries = new TreeMap<>();
    private final Map<String, OwnedAll> alls = new TreeMap<>();
    /**
     * The open pacing episodes, by broker, as the instance that wrote them last saw them: not throttle values, but what
     * a successor needs to go on pacing where its predecessor was (clock, rate, escape, peak) instead of starting
     * again.
     */
    private final Map<Integer, PacingMemory.Resumed> episodes = new TreeMap<>();

    /** The follower side's ledger (with the episodes). */
    ThrottleLedger(LedgerStore store) {
        this(store, ThrottleSide.FOLLOWER);
    }

    ThrottleLedger(LedgerStore store, ThrottleSide side) {
        this.store = store;
        this.side = side;
        this.prefix = side == ThrottleSide.FOLLOWER ? "" : LEADER_PREFIX;
    }

    /** Where it keeps its records. */
    LedgerStore store() {
        return store;
    }

    /** The side whose values it records. */
    ThrottleSide side() {
        return side;
    }

    /** Reads what the store holds (after a start or a takeover): what an earlier instance left is ours to undo. */
    void load() throws InterruptedException, ExecutionException, TimeoutException {
        rates.clear();
        entries.clear();
        alls.clear();
        episodes.clear();
        for (Map.Entry<String, String> stored : store.load().entrySet()) {
            if (!stored.getKey().startsWith(prefix)) {
                continue;
            }
            Map.Entry<String, String> e = Map.entry(stored.getKey().substring(prefix.length()), stored.getValue());
            if (!prefix.isEmpty() && e.getKey().startsWith(LedgerRecords.EPISODE)) {
                continue;
            }
            String key = e.getKey();
            String value = e.getValue();
            if (key.startsWith(LedgerRecords.RATE)) {
                rates.put(LedgerRecords.rateScope(key), LedgerRecords.rate(value));
            } else if (key.startsWith(LedgerRecords.REPLICAS)) {
                entries.put(key.substring(LedgerRecords.REPLICAS.length()), LedgerRecords.entries(value));
            } else if (key.startsWith(LedgerRecords.EPISODE)) {
                episodes.put(
                        Integer.parseInt(key.substring(LedgerRecords.EPISODE.length())), LedgerRecords.episode(value));
            } else if (key.startsWith(LedgerRecords.ALL)) {
                alls.put(key.substring(LedgerRecords.ALL.length()), LedgerRecords.all(value));
            }
        }
    }

    Optional<OwnedRate> rate(BrokerScope scope) {
        return Optional.ofNullable(rates.get(scope));
    }

    Set<BrokerScope> rateScopes() {
        return Set.copyOf(rates.keySet());
    }

    Optional<OwnedEntries> entries(String topic) {
        return Optional.ofNullable(entries.get(topic));
    }

    Optional<OwnedAll> all(String topic) {
        return Optional.ofNullable(alls.get(topic));
    }

    Set<String> topics() {
        Set<String> t = new TreeSet<>(entries.keySet());
        t.addAll(alls.keySet());
        return t;
    }

    /** Whether it records nothing about throttle values (episodes are not throttle values). */
    boolean isEmpty() {
        return rates.isEmpty() && entries.isEmpty() && alls.isEmpty();
    }

    /**
     * Whether it records no throttle value as pacing's: records of removals a read has not shown yet may remain, but
     * nothing of pacing's is in the cluster.
     */
    boolean ownsNoValue() {
        return ownsNoValueBut(Set.of());
    }

    /**
     * As {@link #ownsNoValue()}, but for rates on {@code stranded} scopes: those of brokers no longer registered, which
     * no client can read or change (Kafka sends a broker's config to that broker) until a broker with the same id
     * registers; they are restored then.
     */
    boolean ownsNoValueBut(Set<BrokerScope> stranded) {
        return stranded.containsAll(rates.keySet())
                && alls.isEmpty()
                && entries.values().stream().allMatch(e -> e.added().isEmpty());
    }

    /** The topics with entries or a {@code *} of pacing's no read has shown yet, or removals not yet seen done. */
    Set<String> unseenTopics() {
        Set<String> out = new TreeSet<>();
        entries.forEach((t, e) -> {
            if (e.unseen() || !e.removed().isEmpty()) {
                out.add(t);
            }
        });
        alls.forEach((t, a) -> {
            if (a.unseen()) {
                out.add(t);
            }
        });
        return out;
    }

    /** The scopes with a rate of pacing's no read has shown yet. */
    Set<BrokerScope> unseenRateScopes() {
        Set<BrokerScope> out = new HashSet<>();
        rates.forEach((s, r) -> {
            if (r.unseen()) {
                out.add(s);
            }
        });
        return out;
    }

    /** The open episodes as last recorded, by broker. */
    Map<Integer, PacingMemory.Resumed> episodes() {
        return Map.copyOf(episodes);
    }

    /** A batch of ledger changes, written in one store write. */
    final class Update {
        private final Map<String, String> writes = new LinkedHashMap<>();
        private final Map<BrokerScope, Optional<OwnedRate>> rateChanges = new LinkedHashMap<>();
        private final Map<String, Optional<OwnedEntries>> entryChanges = new LinkedHashMap<>();
        private final Map<String, Optional<OwnedAll>> allChanges = new LinkedHashMap<>();
        private final Map<Integer, Optional<PacingMemory.Resumed>> episodeChanges = new LinkedHashMap<>();

        Update ownEpisode(int broker, PacingMemory.Resumed episode) {
            writes.put(LedgerRecords.episodeKey(broker), LedgerRecords.encode(episode));
            episodeChanges.put(broker, Optional.of(episode));
            return this;
        }

        Update forgetEpisode(int broker) {
            writes.put(LedgerRecords.episodeKey(broker), null);
            episodeChanges.put(broker, Optional.empty());
            return this;
        }

        Update ownRate(BrokerScope scope, OwnedRate rate) {
            writes.put(prefix + LedgerRecords.rateKey(scope), LedgerRecords.encode(rate));
            rateChanges.put(scope, Optional.of(rate));
            return this;
        }

        Update forgetRate(BrokerScope scope) {
            writes.put(prefix + LedgerRecords.rateKey(scope), null);
            rateChanges.put(scope, Optional.empty());
            return this;
        }

        Update ownEntries(String topic, OwnedEntries owned) {
            if (owned.isEmpty()) {
                return forgetEntries(topic);
            }
            writes.put(prefix + LedgerRecords.entriesKey(topic), LedgerRecords.encode(owned));
            entryChanges.put(topic, Optional.of(owned));
            return this;
        }

        Update forgetEntries(String topic) {
            writes.put(prefix + LedgerRecords.entriesKey(topic), null);
            entryChanges.put(topic, Optional.empty());
            return this;
        }

        Update ownAll(String topic, OwnedAll owned) {
            writes.put(prefix + LedgerRecords.allKey(topic), LedgerRecords.encode(owned));
            allChanges.put(topic, Optional.of(owned));
            return this;
        }

        Update forgetAll(String topic) {
            writes.put(prefix + LedgerRecords.allKey(topic), null);
            allChanges.put(topic, Optional.empty());
            return this;
        }

        boolean isEmpty() {
            return writes.isEmpty();
        }

        /** Adds one change. */
        Update apply(Change change) {
            if (change instanceof Change.Rate r) {
                return r.owned().map(o -> ownRate(r.scope(), o)).orElseGet(() -> forgetRate(r.scope()));
            }
            if (change instanceof Change.Entries e) {
                return e.owned().map(o -> ownEntries(e.topic(), o)).orElseGet(() -> forgetEntries(e.topic()));
            }
            Change.All a = (Change.All) change;
            return a.owned().map(o -> ownAll(a.topic(), o)).orElseGet(() -> forgetAll(a.topic()));
        }

        /** Adds these changes, in order. */
        Update applyAll(Collection<? extends Change> changes) {
            changes.forEach(this::apply);
            return this;
        }

        /** Stores the batch, then makes it the ledger's state. */
        void commit() throws InterruptedException, ExecutionException, TimeoutException {
            if (writes.isEmpty()) {
                return;
            }
            store.write(writes);
            rateChanges.forEach((s, r) -> {
                if (r.isPresent()) {
                    rates.put(s, r.get());
                } else {
                    rates.remove(s);
                }
            });
            entryChanges.forEach((t, e) -> {
                if (e.isPresent()) {
                    entries.put(t, e.get());
                } else {
                    entries.remove(t);
                }
            });
            episodeChanges.forEach((b, e) -> {
                if (e.isPresent()) {
                    episodes.put(b, e.get());
                } else {
                    episodes.remove(b);
                }
            });
            allChanges.forEach((t, a) -> {
                if (a.isPresent()) {
                    alls.put(t, a.get());
                } else {
                    alls.remove(t);
                }
            });
        }
    }

    Update update() {
        return new Update();
    }

    /** Entries in partition, then broker order: how the ledger writes them, so a record reads the same each time. */
    static final Comparator<ThrottledReplicas.Replica> ORDER = Comparator.comparingInt(
                    ThrottledReplicas.Replica::partition)
            .thenComparingInt(ThrottledReplicas.Replica::broker);

    static Set<ThrottledReplicas.Replica> sortedSet(Collection<ThrottledReplicas.Replica> replicas) {
        Set<ThrottledReplicas.Replica> s = new TreeSet<>(ORDER);
        s.addAll(replicas);
        return s;
    }
}
