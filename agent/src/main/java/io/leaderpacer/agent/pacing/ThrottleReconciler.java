package io.leaderpacer.agent.pacing;

import io.leaderpacer.agent.core.ActionGuard;
import io.leaderpacer.agent.core.PacingReport;
import io.leaderpacer.agent.pacing.ThrottleLedger.Change;
import io.leaderpacer.agent.throttle.BrokerScope;
import io.leaderpacer.agent.throttle.ThrottleConfigs;
import io.leaderpacer.agent.throttle.ThrottleReading;
import io.leaderpacer.agent.throttle.ThrottleSide;
import io.leaderpacer.agent.throttle.ThrottledReplicas;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.utils.Time;

import java.util.ArrayList;
import java.util.Comparator;
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

/**
 * Brings the cluster's replication throttles (both sides) to a {@link ThrottlePlan} while keeping what others set:
 * it reads what is there, lets each side's {@link ReconcilePlanner} decide the changes, and has the
 * {@link ThrottleWriter} send them in requests of the size Kafka takes, each one recorded in its
 * {@link ThrottleLedger} around it. A request refused, failed, timed out or cut short by a crash leaves the ledger
 * covering what is in the cluster, whichever part of it landed.
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
     * @param maxOpsPerRequest the most config changes in one request: at most the controller's 10,000 records (Kafka's
     *                         limits use half)
     * @param describeBatch    the most resources one {@code describeConfigs} call asks for
     */
    record Limits(int maxListChars, int maxOpsPerRequest, int describeBatch) {

        /**
         * The controller's limit on the records one request may write ({@code QuorumController.MAX_RECORDS_PER_USER_OP};
         * each config change is at most one record, a broker's always one). Measured on a real cluster by
         * {@code ControllerRecordLimitClusterTest}.
         */
        static final int KAFKA_MAX_RECORDS_PER_REQUEST = 10_000;
        /**
         * The most changes pacing sends in one request: half the controller's limit, so that a Kafka that counts a
         * change as more than one record, or lowers its limit, refuses none of pacing's requests.
         */
        static final int MAX_OPS_PER_REQUEST = KAFKA_MAX_RECORDS_PER_REQUEST / 2;
        /** The most characters of values one request carries, well under Kafka's default 100 MiB request size. */
        static final int MAX_REQUEST_VALUE_CHARS = 8 << 20;

        Limits {
            if (maxListChars < 1
                    || maxOpsPerRequest < 1
                    || maxOpsPerRequest > KAFKA_MAX_RECORDS_PER_REQUEST
                    || describeBatch < 1) {
                throw new IllegalArgumentException(
                        "limits out of range: " + maxListChars + ", " + maxOpsPerRequest + ", " + describeBatch);
            }
        }

        /** Kafka's own limits, describing {@code describeBatch} resources a call. */
        static Limits kafka(int describeBatch) {
            return new Limits(ThrottledReplicas.MAX_CONFIG_VALUE_CHARS, MAX_OPS_PER_REQUEST, describeBatch);
        }
    }

    private final ThrottleConfigs throttles;
    /** Per side, what pacing owns there: the follower side's ledger (with the episodes) and the leader side's. */
    private final Map<ThrottleSide, ThrottleLedger> ledgers = new EnumMap<>(ThrottleSide.class);

    private final Map<ThrottleSide, ReconcilePlanner> planners = new EnumMap<>(ThrottleSide.class);
    private final ActionGuard guard;
    private final Limits limits;
    /** Sends the planned edits and reads back what landed. */
    private final ThrottleWriter writer;
    /** Whether the leader side's ledger was read from the store (the follower side's is read by its owner). */
    private boolean leaderLoaded;
    /** The rates on brokers no longer registered that a look has already named. */
    private final Set<BrokerScope> notedStranded = new HashSet<>();

    /**
     * @param follower the follower side's ledger, as loaded by the caller; the leader side's is kept in the same store
     *                 and read before the first reconciliation
     * @param time     what it pauses by between read-backs (the loop's)
     */
    ThrottleReconciler(
            ThrottleConfigs throttles, ThrottleLedger follower, ActionGuard guard, Limits limits, Time time) {
        this.throttles = throttles;
        this.guard = guard;
        this.limits = limits;
        ledgers.put(ThrottleSide.FOLLOWER, follower);
        ledgers.put(ThrottleSide.LEADER, new ThrottleLedger(follower.store(), ThrottleSide.LEADER));
        ledgers.forEach((side, l) -> planners.put(side, new ReconcilePlanner(l, limits.maxListChars())));
        this.writer = new ThrottleWriter(throttles, ledgers, guard, limits, time);
    }

    /** Reads both sides' ledgers from the store again (after a start or a takeover). */
    void load() throws InterruptedException, ExecutionException, TimeoutException {
        for (ThrottleLedger l : ledgers.values()) {
            l.load();
        }
        leaderLoaded = true;
    }

    private void loadLeaderOnce() throws InterruptedException, ExecutionException, TimeoutException {
        if (!leaderLoaded) {
            ledgers.get(ThrottleSide.LEADER).load();
            leaderLoaded = true;
        }
    }

    /**
     * What a reconciliation did and saw.
     *
     * @param changes  what it changed
     * @param notes    what it saw and left alone, for the log and {@code /status}
     * @param failures the changes Kafka did not confirm, with why: each is tried again at the next look
     * @param quotas   what it read that decides how Kafka counts bytes on pacing's quotas, for the next look
     */
    record Outcome(List<String> changes, List<String> notes, List<String> failures, QuotaView quotas) {
        Outcome {
            changes = List.copyOf(changes);
            notes = List.copyOf(notes);
            failures = List.copyOf(failures);
        }

        Outcome(List<String> changes, List<String> notes, List<String> failures) {
            this(changes, notes, failures, QuotaView.NONE);
        }

        /** A look with changes Kafka did not confirm failed in part. */
        PacingReport.Kind kind() {
            return failures.isEmpty() ? PacingReport.Kind.FULL : PacingReport.Kind.FAILED;
        }

        /**
         * The look's problem: changes Kafka did not confirm (tried again at the next look), else the one given (the
         * canary's, or why pacing is off).
         */
        Optional<String> problem(Optional<String> otherwise) {
            if (failures.isEmpty()) {
                return otherwise;
            }
            return Optional.of("catch-up pacing: " + failures.size() + " throttle change(s) not confirmed by Kafka,"
                    + " tried again at the next look; first: " + failures.get(0));
        }

        /** The brokers read whose leader rate someone else set. */
        Set<Integer> foreignLeaderRates() {
            return quotas.foreignLeaderRates().keySet();
        }
    }

    /**
     * Brings the cluster to the plan.
     *
     * @param active the brokers that are up: only their per-broker values can be read and written
     * @throws ExecutionException when Kafka denied a read or a change (the cause is its
     *                            {@link AuthorizationException}): pacing cannot work without the permission
     */
    Outcome reconcile(ThrottlePlan plan, Set<Integer> active)
            throws InterruptedException, ExecutionException, TimeoutException {
        return reconcile(plan, active, Set.of(), Set.of(), false);
    }

    /**
     * Brings the cluster to the plan, reading the lists of the {@code watched} topics too: those whose bytes may count
     * on a quota pacing sets (topics with a replica on a paced broker; with the preferred replicas first, every
     * topic, for someone else's leader entries).
     *
     * @param listed the topics the look's own read of the cluster lists: a broker that answers that one of these does
     *               not exist lags its creation, and pacing's records of it are kept (only a topic the look did not
     *               find is taken as deleted)
     */
    Outcome reconcile(ThrottlePlan plan, Set<Integer> active, Set<String> watched, Set<String> listed)
            throws InterruptedException, ExecutionException, TimeoutException {
        return reconcile(plan, active, watched, listed, false);
    }

    /**
     * What {@link #reconcile} would change, without changing anything or recording anything (for {@code pacer plan}).
     */
    Outcome preview(ThrottlePlan plan, Set<Integer> active, Set<String> watched, Set<String> listed)
            throws InterruptedException, ExecutionException, TimeoutException {
        return reconcile(plan, active, watched, listed, true);
    }

    /** Restores everything it owns that can be restored now (brokers that are up); what is left waits. */
    Outcome restoreAll(Set<Integer> active) throws InterruptedException, ExecutionException, TimeoutException {
        return reconcile(ThrottlePlan.NONE, active);
    }

    /** As {@link #restoreAll(Set)}, with the topics the look's own read of the cluster lists. */
    Outcome restoreAll(Set<Integer> active, Set<String> listed)
            throws InterruptedException, ExecutionException, TimeoutException {
        return reconcile(ThrottlePlan.NONE, active, Set.of(), listed, false);
    }

    /** Whether neither side's ledger records a throttle value as pacing's (false before both were read: unknown). */
    boolean ownsNothing() {
        return ownsNothing(Set.of());
    }

    /**
     * As {@link #ownsNothing()}, but for rates on brokers in {@code gone}: brokers no longer registered, whose configs
     * no client can change until a broker with the same id registers again (when pacing restores them).
     */
    boolean ownsNothing(Set<Integer> gone) {
        Set<BrokerScope> stranded = new HashSet<>();
        gone.forEach(b -> stranded.add(BrokerScope.broker(b)));
        return leaderLoaded && ledgers.values().stream().allMatch(l -> l.ownsNoValueBut(stranded));
    }

    /** The brokers on which either side's ledger records a rate (of pacing's, or a removal not yet seen). */
    Set<Integer> rateBrokers() {
        Set<Integer> out = new TreeSet<>();
        ledgers.values()
                .forEach(l -> l.rateScopes().stream()
                        .filter(sc -> !sc.isClusterDefault())
                        .forEach(sc -> out.add(Integer.parseInt(sc.brokerId()))));
        return out;
    }

    /**
     * For each rate pacing owns on a broker in {@code gone}, a line saying where it is and when it is restored, each
     * once: a look that says nothing new can be quiet.
     */
    List<String> stranded(Set<Integer> gone) {
        List<String> out = new ArrayList<>();
        Set<BrokerScope> now = new HashSet<>();
        for (ThrottleLedger l : ledgers.values()) {
            for (BrokerScope sc : l.rateScopes()) {
                if (sc.isClusterDefault() || !gone.contains(Integer.parseInt(sc.brokerId()))) {
                    continue;
                }
                now.add(sc);
                if (!notedStranded.contains(sc)) {
                    ThrottleLedger.OwnedRate o = l.rate(sc).orElseThrow();
                    out.add("broker " + sc.brokerId() + " is no longer registered: pacing's "
                            + l.side().word() + " rate on it ("
                            + RatePlanner.text(OptionalLong.of(o.ours())) + ", replacing "
                            + RatePlanner.text(o.prior()) + ") stays in Kafka's metadata, where no client can change"
                            + " it (a broker's config is sent to that broker), and throttles nothing; it is restored"
                            + " when a broker with id " + sc.brokerId() + " registers");
                }
            }
        }
        notedStranded.clear();
        notedStranded.addAll(now);
        return out;
    }

    /** Whether either side's ledger holds a record (a value of pacing's, or a removal not yet seen). */
    boolean hasRecords() {
        return !leaderLoaded || ledgers.values().stream().anyMatch(l -> !l.isEmpty());
    }

    private Outcome reconcile(
            ThrottlePlan plan, Set<Integer> active, Set<String> watched, Set<String> listed, boolean dry)
            throws InterruptedException, ExecutionException, TimeoutException {
        loadLeaderOnce();
        Read read = read(plan, active, watched);
        List<ThrottleEdit> edits = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        Map<ThrottleSide, List<Change>> forget = new EnumMap<>(ThrottleSide.class);
        Map<ThrottleSide, ReconcilePlanner.Planned> plans = new EnumMap<>(ThrottleSide.class);
        for (ThrottleSide side : ThrottleSide.values()) {
            Set<String> topics = new TreeSet<>(read.topics().get(side));
            topics.addAll(watched);
            ReconcilePlanner.Planned planned =
                    planners.get(side).plan(plan, read.scopes().get(side), topics, read.now(), listed::contains);
            edits.addAll(planned.edits());
            notes.addAll(planned.notes());
            forget.put(side, planned.forget());
            plans.put(side, planned);
        }
        ReconcilePlanner.Planned followerSide = plans.get(ThrottleSide.FOLLOWER);
        ReconcilePlanner.Planned leaderSide = plans.get(ThrottleSide.LEADER);
        QuotaView quotas = new QuotaView(
                followerSide.lists(),
                leaderSide.lists(),
                followerSide.foreignRates(),
                followerSide.foreignDefault(),
                plan.leader().inForce() ? leaderSide.foreignRates() : Map.of(),
                plan.leader().inForce());
        edits.sort(Comparator.comparing(ThrottleEdit::phase));
        if (dry) {
            return new Outcome(edits.stream().map(ThrottleEdit::description).toList(), notes, List.of(), quotas);
        }
        if (forget.values().stream().anyMatch(f -> !f.isEmpty())) {
            guard.checkActive("record what pacing no longer owns");
            for (ThrottleSide side : ThrottleSide.values()) {
                ledgers.get(side).update().applyAll(forget.get(side)).commit();
            }
        }
        ThrottleWriter.Written written = writer.write(edits, listed, active, notes);
        return new Outcome(written.changes(), notes, written.failures(), quotas);
    }

    /** What a look read of the throttle configs: the rate scopes and topics of each side it read, and the values. */
    private record Read(
            Map<ThrottleSide, Set<BrokerScope>> scopes, Map<ThrottleSide, Set<String>> topics, ThrottleReading now) {}

    /**
     * Reads the values the plan and the ledgers concern, on both sides, and the lists of the {@code watched} topics.
     *
     * @throws ExecutionException when reading the broker configs was denied: pacing cannot work, and says so once (a
     *                            topic denied is left for later, noted, and the rest is changed or restored)
     */
    private Read read(ThrottlePlan plan, Set<Integer> active, Set<String> watched)
            throws InterruptedException, ExecutionException, TimeoutException {
        Map<ThrottleSide, Set<BrokerScope>> scopes = new EnumMap<>(ThrottleSide.class);
        Map<ThrottleSide, Set<String>> topics = new EnumMap<>(ThrottleSide.class);
        scopes.put(ThrottleSide.FOLLOWER, scopes(plan.brokerRates().keySet(), ThrottleSide.FOLLOWER, active));
        // With the preferred replicas first, every active broker's leader rate is read: the next plan leaves on the
        // follower side the replicas whose leader has a rate someone else set.
        scopes.put(
                ThrottleSide.LEADER,
                scopes(plan.leader().inForce() ? active : plan.leader().rates().keySet(), ThrottleSide.LEADER, active));
        topics.put(ThrottleSide.FOLLOWER, topics(plan.entries().keySet(), ThrottleSide.FOLLOWER));
        topics.put(ThrottleSide.LEADER, topics(plan.leader().entries().keySet(), ThrottleSide.LEADER));
        Set<BrokerScope> allScopes = new HashSet<>();
        Set<String> allTopics = new TreeSet<>(watched);
        scopes.values().forEach(allScopes::addAll);
        topics.values().forEach(allTopics::addAll);
        ThrottleReading now = throttles.describeEach(allScopes, allTopics, limits.describeBatch());
        for (Map.Entry<ConfigResource, Throwable> f : now.failed().entrySet()) {
            if (f.getValue() instanceof AuthorizationException && f.getKey().type() == ConfigResource.Type.BROKER) {
                throw new ExecutionException("describeConfigs denied", f.getValue());
            }
        }
        return new Read(scopes, topics, now);
    }

    /** The rate scopes a side reads: the cluster default, the plan's brokers and the ledger's, those that are up. */
    private Set<BrokerScope> scopes(Set<Integer> planned, ThrottleSide side, Set<Integer> active) {
        Set<BrokerScope> out = new HashSet<>();
        out.add(BrokerScope.clusterDefault());
        planned.forEach(b -> out.add(BrokerScope.broker(b)));
        out.addAll(ledgers.get(side).rateScopes());
        out.removeIf(s -> !s.isClusterDefault() && !active.contains(Integer.parseInt(s.brokerId())));
        return out;
    }

    private Set<String> topics(Set<String> planned, ThrottleSide side) {
        Set<String> out = new TreeSet<>(planned);
        out.addAll(ledgers.get(side).topics());
        return out;
    }
}
