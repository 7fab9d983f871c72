package io.leaderpacer.agent.pacing;

import io.leaderpacer.agent.kafka.BrokerConfigReader;
import io.leaderpacer.agent.kafka.ReplicaSizeReader;
import io.leaderpacer.engine.cluster.ClusterSnapshot;
import io.leaderpacer.engine.cluster.PartitionState;
import io.leaderpacer.engine.config.CatchUpPacing;
import io.leaderpacer.engine.pacing.BrokerSignals;
import io.leaderpacer.engine.pacing.CatchUpState;
import org.apache.kafka.common.TopicPartition;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.IntFunction;

/**
 * Turns a cluster snapshot into the pacing rule's signals: which brokers are down, which catch up (and by how many
 * bytes), which are in every ISR.
 *
 * <p>Bytes behind come from {@code describeLogDirs} of the catching-up broker and of the leaders it follows (sizes
 * only, no data read). A broker that does not answer, which a starting broker does until it is unfenced, has no
 * bytes behind: the rule then holds its rate.
 */
final class RecoveryObserver {

    private final ReplicaSizeReader replicaSizes;
    private final BrokerConfigReader brokerConfigs;
    /**
     * The previous look's sizes of each catching-up broker's out-of-sync replicas and of their leaders, for the flows
     * (see {@link BrokerSignals.Flow}); and when it was taken.
     */
    private Map<Integer, Map<TopicPartition, Sizes>> previous = Map.of();

    /** The previous look's replica sizes of every broker that answered, for each replica's growth. */
    private Map<Integer, Map<TopicPartition, Long>> previousSizes = Map.of();

    private long previousAtMs;

    /**
     * Per broker hosting replicas, the first look that found it down (not active) in its current recovery: its leaders
     * count it caught up until their {@code replica.lag.time.max.ms} after its last fetch, which was about then.
     */
    private final Map<Integer, Long> wentDownAtMs = new HashMap<>();

    /** Per broker read, its {@code replica.lag.time.max.ms}: a static setting, read once. */
    private final Map<Integer, Long> lagTimeMs = new HashMap<>();

    /** Kafka's default {@code replica.lag.time.max.ms}, assumed for a broker whose setting could not be read. */
    static final long DEFAULT_LAG_TIME_MS = 30_000;

    /** A replica's size, its leader's, and which broker led it. */
    record Sizes(long own, long leader, int leaderId) {}

    RecoveryObserver(ReplicaSizeReader replicaSizes, BrokerConfigReader brokerConfigs) {
        this.replicaSizes = replicaSizes;
        this.brokerConfigs = brokerConfigs;
    }

    /** A look with no throttle configs known, and the leaders' own {@code replica.lag.time.max.ms}. */
    RecoveryObservation observe(ClusterSnapshot snapshot, IntFunction<OptionalDouble> canary, long nowMs)
            throws InterruptedException {
        return observe(snapshot, canary, QuotaView.NONE, CatchUpPacing.Scope.LEADERS_LAG_TIME, nowMs);
    }

    /**
     * @param snapshot the cluster as just read
     * @param canary   per broker, the canary's P99 over its steady P99 where that broker is an in-sync follower
     * @param quotas   what the last look read of the throttle configs: which in-sync replicas are listed (their bytes
     *                 count on the broker's follower quota), and whose rate is in force on each broker
     * @param lagTimeMaxMs how long after a broker went down its leaders count it caught up (the signals'
     *                 {@link BrokerSignals#caughtUpUntilMs}); {@link CatchUpPacing.Scope#LEADERS_LAG_TIME}: their own
     *                 {@code replica.lag.time.max.ms}, read from them
     */
    RecoveryObservation observe(
            ClusterSnapshot snapshot,
            IntFunction<OptionalDouble> canary,
            QuotaView quotas,
            long lagTimeMaxMs,
            long nowMs)
            throws InterruptedException {
        Standing where = Standing.of(snapshot);
        noteWhoIsDown(where, nowMs);
        long hold = lagTimeMaxMs >= 0 ? lagTimeMaxMs : wentDownAtMs.isEmpty() ? 0 : lagTime(where.active());
        Map<Integer, Map<TopicPartition, Long>> sizes =
                sizes(where.catchingUp(), downInGrace(where.active(), hold, nowMs), where.outOfSync());
        Map<Integer, Map<TopicPartition, Double>> growth = growth(previousSizes, sizes, nowMs - previousAtMs);
        CatchUpBytes bytes = bytes(where, sizes, growth, snapshot, quotas, nowMs);
        previousSizes = sizes;
        previousAtMs = nowMs;
        List<BrokerSignals> signals = new ArrayList<>();
        Map<Integer, Integer> notLed = where.catchingUp().isEmpty() ? Map.of() : notLed(snapshot.partitions());
        for (int b : where.hosting()) {
            long caughtUpUntil = wentDownAtMs.containsKey(b) ? wentDownAtMs.get(b) + hold : Long.MIN_VALUE;
            if (!where.active().contains(b)) {
                signals.add(BrokerSignals.inactive(b).caughtUpUntil(caughtUpUntil));
            } else if (!where.catchingUp().contains(b)) {
                signals.add(BrokerSignals.inSync(b));
            } else {
                Long behind = bytes.behind().get(b);
                signals.add(new BrokerSignals(
                        b,
                        CatchUpState.CATCHING_UP,
                        behind == null ? OptionalLong.empty() : OptionalLong.of(behind),
                        canary.apply(b),
                        bytes.flows().getOrDefault(b, BrokerSignals.Flow.UNKNOWN),
                        quotas.foreignFollowerRate(b),
                        caughtUpUntil,
                        preferred(b, where.outOfSync().get(b), bytes.byReplica().get(b), growth)
                                .withNotLed(notLed.getOrDefault(b, 0))));
            }
        }
        return new RecoveryObservation(signals, where.outOfSync(), bytes.byReplica(), where.active(), growth);
    }

    /**
     * Where the replicas stand in a snapshot: per broker its out-of-sync replicas, the brokers hosting any, the active
     * (registered and unfenced) ones, and the active ones with replicas out of sync.
     */
    record Standing(
            Map<Integer, List<PartitionState>> outOfSync,
            Set<Integer> hosting,
            Set<Integer> active,
            Set<Integer> catchingUp) {

        static Standing of(ClusterSnapshot snapshot) {
            Map<Integer, List<PartitionState>> outOfSync = new TreeMap<>();
            Set<Integer> hosting = new TreeSet<>();
            for (PartitionState p : snapshot.partitions()) {
                for (int b : p.replicas()) {
                    hosting.add(b);
                    if (!p.isrContains(b)) {
                        outOfSync.computeIfAbsent(b, k -> new ArrayList<>()).add(p);
                    }
                }
            }
            // Every active broker, hosting replicas or not: a broker pacing set a leader rate on may lead none now,
            // and its rate must still be read and restored.
            Set<Integer> active = new TreeSet<>();
            for (int b : snapshot.registeredBrokerIds()) {
                if (snapshot.isActive(b)) {
                    active.add(b);
                }
            }
            Set<Integer> catchingUp = new TreeSet<>(active);
            catchingUp.retainAll(outOfSync.keySet());
            return new Standing(outOfSync, hosting, active, catchingUp);
        }
    }

    /** Remembers when each hosting broker was first seen down in its current recovery, and forgets it once in sync. */
    private void noteWhoIsDown(Standing where, long nowMs) {
        for (int b : where.hosting()) {
            if (!where.active().contains(b)) {
                wentDownAtMs.putIfAbsent(b, nowMs);
            } else if (!where.catchingUp().contains(b)) {
                wentDownAtMs.remove(b);
            }
        }
        wentDownAtMs.keySet().retainAll(where.hosting());
    }

    /** Per catching-up broker that answered: its bytes behind, in total and by replica, and its flows. */
    record CatchUpBytes(
            Map<Integer, Long> behind,
            Map<Integer, Map<TopicPartition, Long>> byReplica,
            Map<Integer, BrokerSignals.Flow> flows) {}

    /**
     * The bytes of each catching-up broker, against the previous look's sizes for its flows (with the in-sync bytes
     * its quota counts, where both looks measured them); keeps this look's sizes for the next.
     */
    private CatchUpBytes bytes(
            Standing where,
            Map<Integer, Map<TopicPartition, Long>> sizes,
            Map<Integer, Map<TopicPartition, Double>> growth,
            ClusterSnapshot snapshot,
            QuotaView quotas,
            long nowMs) {
        CatchUpBytes out = new CatchUpBytes(new HashMap<>(), new HashMap<>(), new HashMap<>());
        Map<Integer, Map<TopicPartition, Sizes>> now = new HashMap<>();
        for (int b : where.catchingUp()) {
            List<PartitionState> replicas = where.outOfSync().get(b);
            ReplicaBytes bytes = ReplicaBytes.of(b, sizes, replicas);
            if (bytes.behind() < 0) {
                continue;
            }
            out.behind().put(b, bytes.behind());
            out.byReplica().put(b, ReplicaBytes.behindByPartition(b, sizes, replicas));
            now.put(b, sizesOf(b, sizes, replicas));
            BrokerSignals.Flow f = flow(previous.get(b), now.get(b), nowMs - previousAtMs);
            if (f.known() && growth.containsKey(b)) {
                double charged = quotas.followerCharged(b, snapshot.partitions(), growth.get(b));
                f = BrokerSignals.Flow.of(
                        f.fetchBytesPerSecond().getAsDouble(),
                        f.inflowBytesPerSecond().getAsDouble(),
                        charged);
            }
            out.flows().put(b, f);
        }
        previous = now;
        return out;
    }

    /**
     * Per broker, how many partitions it is the preferred leader of and does not lead now, in sync or not: one pass
     * over the partitions for every broker of the look (a pass per recovering broker would cost as many full scans).
     */
    static Map<Integer, Integer> notLed(Collection<PartitionState> partitions) {
        Map<Integer, Integer> notLed = new HashMap<>();
        for (PartitionState p : partitions) {
            int preferred = p.replicaAt(0);
            if (!p.hasLeader() || p.leader() != preferred) {
                notLed.merge(preferred, 1, Integer::sum);
            }
        }
        return notLed;
    }

    /**
     * {@code broker}'s out-of-sync replicas of the partitions it is the preferred leader of: how many, their bytes
     * behind (over those whose distance is known; empty when none is), and what flows into them (their leaders'
     * growth, where measured).
     */
    static BrokerSignals.Preferred preferred(
            int broker,
            List<PartitionState> outOfSync,
            Map<TopicPartition, Long> behind,
            Map<Integer, Map<TopicPartition, Double>> growth) {
        int n = 0;
        long bytes = 0;
        boolean known = false;
        double inflow = 0;
        boolean measured = false;
        for (PartitionState p : outOfSync) {
            if (p.replicaAt(0) != broker) {
                continue;
            }
            n++;
            TopicPartition tp = new TopicPartition(p.id().topic(), p.id().partition());
            Long lacks = behind == null ? null : behind.get(tp);
            if (lacks != null) {
                bytes += lacks;
                known = true;
            }
            Double in =
                    p.hasLeader() ? growth.getOrDefault(p.leader(), Map.of()).get(tp) : null;
            if (in != null) {
                inflow += in;
                measured = true;
            }
        }
        return new BrokerSignals.Preferred(
                n,
                known ? OptionalLong.of(bytes) : OptionalLong.empty(),
                measured ? OptionalDouble.of(inflow) : OptionalDouble.empty());
    }

    /**
     * Per broker that answered at both looks, each replica's growth in bytes per second (0 for one that shrank: a log
     * that deleted old segments says nothing of what flowed in).
     */
    static Map<Integer, Map<TopicPartition, Double>> growth(
            Map<Integer, Map<TopicPartition, Long>> before,
            Map<Integer, Map<TopicPartition, Long>> now,
            long elapsedMs) {
        Map<Integer, Map<TopicPartition, Double>> out = new HashMap<>();
        if (elapsedMs <= 0) {
            return out;
        }
        now.forEach((broker, sizes) -> {
            Map<TopicPartition, Long> was = before.get(broker);
            if (was == null) {
                return;
            }
            Map<TopicPartition, Double> g = new HashMap<>();
            sizes.forEach((tp, size) -> {
                Long w = was.get(tp);
                if (w != null) {
                    g.put(tp, Math.max(0, size - w) * 1000.0 / elapsedMs);
                }
            });
            out.put(broker, g);
        });
        return out;
    }

    /**
     * The longest {@code replica.lag.time.max.ms} of the active brokers (any of them may lead a partition of a broker
     * that went down): read once per broker; Kafka's default for one that does not answer.
     */
    private long lagTime(Set<Integer> active) throws InterruptedException {
        List<Integer> unread = new ArrayList<>();
        for (int b : active) {
            if (!lagTimeMs.containsKey(b)) {
                unread.add(b);
            }
        }
        // A broker not read this time (not answering, a permission missing) counts at the default meanwhile.
        brokerConfigs.readEach(unread, Set.of(LAG_TIME_KEY)).forEach((broker, values) -> {
            try {
                Optional.ofNullable(values.get(LAG_TIME_KEY)).ifPresent(v -> lagTimeMs.put(broker, Long.parseLong(v)));
            } catch (NumberFormatException e) {
                // Not a number: the default.
            }
        });
        long max = DEFAULT_LAG_TIME_MS;
        boolean any = false;
        for (int b : active) {
            Long t = lagTimeMs.get(b);
            if (t != null) {
                max = any ? Math.max(max, t) : t;
                any = true;
            }
        }
        return any ? max : DEFAULT_LAG_TIME_MS;
    }

    /** The leaders' setting that decides how long they count a follower caught up after its last caught-up fetch. */
    static final String LAG_TIME_KEY = "replica.lag.time.max.ms";

    /** Per out-of-sync replica {@code broker} follows whose leader answered, its size and its leader's. */
    private static Map<TopicPartition, Sizes> sizesOf(
            int broker, Map<Integer, Map<TopicPartition, Long>> sizes, List<PartitionState> outOfSync) {
        Map<TopicPartition, Long> own = sizes.get(broker);
        Map<TopicPartition, Sizes> out = new HashMap<>();
        for (PartitionState p : outOfSync) {
            if (!p.hasLeader() || p.leader() == broker || !sizes.containsKey(p.leader())) {
                continue;
            }
            TopicPartition tp = new TopicPartition(p.id().topic(), p.id().partition());
            Long leader = sizes.get(p.leader()).get(tp);
            if (leader != null) {
                out.put(tp, new Sizes(own.getOrDefault(tp, 0L), leader, p.leader()));
            }
        }
        return out;
    }

    /**
     * The flows between two looks, over the replicas out of sync at both under the same leader: each replica's growth
     * (what it fetched) and its leader's (what flowed in), counted when positive (a log that shrank deleted old
     * segments, which says nothing of either).
     */
    static BrokerSignals.Flow flow(Map<TopicPartition, Sizes> before, Map<TopicPartition, Sizes> now, long elapsedMs) {
        if (before == null || elapsedMs <= 0) {
            return BrokerSignals.Flow.UNKNOWN;
        }
        long fetched = 0;
        long inflow = 0;
        for (Map.Entry<TopicPartition, Sizes> e : now.entrySet()) {
            Sizes b = before.get(e.getKey());
            Sizes n = e.getValue();
            if (b == null || b.leaderId() != n.leaderId()) {
                continue;
            }
            fetched += Math.max(0, n.own() - b.own());
            inflow += Math.max(0, n.leader() - b.leader());
        }
        return BrokerSignals.Flow.of(fetched * 1000.0 / elapsedMs, inflow * 1000.0 / elapsedMs);
    }

    /**
     * The brokers down (not active) within their leaders' lag time of going down: pacing's caught-up grace throttles
     * their partitions without writes, and can tell those only from their leaders' growth between two looks. Reading
     * the leaders while the broker is down has that growth before its start, and the throttle is set in time for its
     * first fetch: evidence run 24 measured every write waiting from the broker's unfencing until the look that could
     * tell, 5 s later. Bounded by the lag time, so a broker that never returns costs no reads.
     */
    private Set<Integer> downInGrace(Set<Integer> active, long hold, long nowMs) {
        Set<Integer> out = new TreeSet<>();
        wentDownAtMs.forEach((b, at) -> {
            if (!active.contains(b) && nowMs < at + hold) {
                out.add(b);
            }
        });
        return out;
    }

    /**
     * The replica sizes pacing reads at a look: of each catching-up broker and of the leaders of its out-of-sync
     * replicas; and of the leaders of the replicas of each broker down in its grace (never of a down broker itself,
     * which would hold the look for the whole time-out); per broker that answered.
     */
    private Map<Integer, Map<TopicPartition, Long>> sizes(
            Set<Integer> catchingUp, Set<Integer> downInGrace, Map<Integer, List<PartitionState>> outOfSync)
            throws InterruptedException {
        if (catchingUp.isEmpty() && downInGrace.isEmpty()) {
            return Map.of();
        }
        Set<Integer> asked = new TreeSet<>(catchingUp);
        Set<Integer> leadersOf = new TreeSet<>(catchingUp);
        leadersOf.addAll(downInGrace);
        for (int b : leadersOf) {
            for (PartitionState p : outOfSync.getOrDefault(b, List.of())) {
                if (p.hasLeader() && !downInGrace.contains(p.leader())) {
                    asked.add(p.leader());
                }
            }
        }
        if (asked.isEmpty()) {
            return Map.of();
        }
        return replicaSizes.read(asked);
    }
}
