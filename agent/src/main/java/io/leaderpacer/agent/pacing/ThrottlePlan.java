package io.leaderpacer.agent.pacing;

import io.leaderpacer.agent.core.CatchUpQuota;
import io.leaderpacer.agent.throttle.ThrottledReplicas;
import io.leaderpacer.engine.cluster.PartitionState;
import io.leaderpacer.engine.config.CatchUpPacing;
import io.leaderpacer.engine.pacing.BrokerPacing;
import io.leaderpacer.engine.pacing.PacingDecision;
import io.leaderpacer.engine.pacing.PacingPhase;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The replication throttle a pacing decision asks for: a rate per paced broker and the replica entries of its
 * out-of-sync replicas, but for those within a fetch or so of their leader; with the preferred replicas first, those
 * the broker is the preferred leader of on the leader side, at the pacing rate, and the others at the min rate.
 *
 * <p>Where the follower rate goes: Kafka sends a per-broker config to that broker, so a broker that is down cannot get
 * one; and the rate must be in force when its fetchers start. So a paced broker that is down is covered by the
 * cluster-default follower rate (the least rate among the paced brokers that are down), and one that is up by a
 * per-broker rate (which takes precedence over the default). The default throttles only partitions whose lists name
 * a broker, and pacing's entries name only paced brokers.
 *
 * <p>Why the leader side for the preferred replicas: Kafka has one follower quota per broker, shared by every replica
 * listed on that side, so it cannot let some of a broker's replicas catch up before others. The leader side has a quota
 * of its own on each leader, for the partitions whose leader list names that leader, applied to their followers out of
 * the ISR. With the preferred replicas there and the rest on the follower side at the min rate, the preferred ones
 * catch up at the pacing rate and the broker's leadership can come back after them; the broker's load is about the
 * same. Leader rates are set on leaders, which are up, so no cluster default is needed for them.
 *
 * @param brokerRates per paced broker that is active, its follower rate in bytes per second
 * @param defaultRate the cluster-default follower rate, when a paced broker is down
 * @param entries     per topic, the follower entries naming a paced broker's out-of-sync replicas
 * @param leftOut     per paced broker, how many of its out-of-sync replicas were left out for being close
 * @param leader      the leader side: what the preferred replicas catch up under, when they go first
 * @param quotas      per paced broker that is up, the rate decided against what pacing sets for its catch-up
 * @param foreign     why some preferred replicas stay on the follower side, for the notes
 * @param stepBytes   the least step of the rate decided (the min rate): a rate of pacing's in force is kept while it is
 *                    within {@link #tolerance} of the one wanted
 */
record ThrottlePlan(
        Map<Integer, Long> brokerRates,
        OptionalLong defaultRate,
        Map<String, Set<ThrottledReplicas.Replica>> entries,
        Map<Integer, Integer> leftOut,
        LeaderSide leader,
        Map<Integer, CatchUpQuota> quotas,
        List<String> foreign,
        long stepBytes) {

    static final ThrottlePlan NONE = new ThrottlePlan(Map.of(), OptionalLong.empty(), Map.of());

    /**
     * The key of the follower side among the leaders a preferred catch-up's rate is split over: the preferred replicas
     * that cannot go on the leader side of theirs (another replica out of the ISR, someone else's leader quota) catch
     * up under the broker's follower rate. Broker ids are never negative.
     */
    private static final int FOLLOWER_SIDE = -1;

    /**
     * One paced broker's preferred replicas by the side that sends them (a leader, or {@link #FOLLOWER_SIDE}): what
     * its rate is split over while they go first.
     */
    private static final class PreferredSplit {
        /** What a paced broker's rate becomes: its leaders' shares, and its follower rate. */
        record Split(Map<Integer, Long> leaderShares, long followerRate) {}

        private final Map<Integer, Long> behind = new TreeMap<>();
        private final Map<Integer, Double> inflow = new TreeMap<>();
        private boolean allKnown = true;

        void add(int side, OptionalLong lacks, double inflowBytesPerSecond) {
            allKnown &= lacks.isPresent();
            behind.merge(side, lacks.orElse(0), Long::sum);
            inflow.merge(side, inflowBytesPerSecond, Double::sum);
        }

        /**
         * Each leader's share of {@code rate} ({@link ThrottlePlan#shares}; none when no leader sends any), and the
         * follower rate: all of {@code rate} when no leader sends a preferred replica; else the follower side's share,
         * and at least the min rate the others wait at.
         */
        Split split(long rate, long minRate) {
            Map<Integer, Long> shares = everySide(rate);
            long follower =
                    shares.isEmpty() ? rate : Math.max(Math.min(rate, minRate), shares.getOrDefault(FOLLOWER_SIDE, 0L));
            shares.remove(FOLLOWER_SIDE);
            return new Split(shares, follower);
        }

        private Map<Integer, Long> everySide(long rate) {
            return behind.keySet().stream().anyMatch(side -> side != FOLLOWER_SIDE)
                    ? ThrottlePlan.shares(rate, behind, inflow, allKnown)
                    : new TreeMap<>();
        }
    }

    /**
     * The leader side of a plan.
     *
     * @param rates   per leader broker, its leader rate in bytes per second
     * @param entries per topic, the leader entries: {@code partition:leader}, which throttle that leader's sends of the
     *                partition to followers out of its ISR
     * @param inForce whether the preferred replicas go first now (some broker is paced with the key on): then every
     *                active broker's leader rate is read, so that the next plan knows which someone else set
     */
    record LeaderSide(Map<Integer, Long> rates, Map<String, Set<ThrottledReplicas.Replica>> entries, boolean inForce) {
        static final LeaderSide NONE = new LeaderSide(Map.of(), Map.of(), false);

        LeaderSide {
            rates = Map.copyOf(rates);
            entries = Map.copyOf(entries);
        }

        /** A leader side in force where it has rates. */
        LeaderSide(Map<Integer, Long> rates, Map<String, Set<ThrottledReplicas.Replica>> entries) {
            this(rates, entries, !rates.isEmpty());
        }
    }

    ThrottlePlan {
        brokerRates = Map.copyOf(brokerRates);
        entries = Map.copyOf(entries);
        leftOut = Map.copyOf(leftOut);
        Objects.requireNonNull(leader, "leader");
        quotas = Map.copyOf(quotas);
        foreign = List.copyOf(foreign);
    }

    /** A plan with no quota measured. */
    ThrottlePlan(
            Map<Integer, Long> brokerRates,
            OptionalLong defaultRate,
            Map<String, Set<ThrottledReplicas.Replica>> entries,
            Map<Integer, Integer> leftOut,
            LeaderSide leader) {
        this(brokerRates, defaultRate, entries, leftOut, leader, Map.of(), List.of(), 0);
    }

    /**
     * How far a rate of pacing's in force may be from {@code wantedBytes} and be kept: a tenth of it, and less than
     * half the least step of the rate decided, so that no decision is swallowed; 0 for a plan with no step.
     */
    long tolerance(long wantedBytes) {
        return Math.min(wantedBytes / 10, stepBytes / 2);
    }

    /** A follower-side plan that left no replica out for being close. */
    ThrottlePlan(
            Map<Integer, Long> brokerRates,
            OptionalLong defaultRate,
            Map<String, Set<ThrottledReplicas.Replica>> entries) {
        this(brokerRates, defaultRate, entries, Map.of(), LeaderSide.NONE);
    }

    /** For /status: per broker with replicas left out for being close, how many and why; leaders not used, and why. */
    List<String> notes(long unthrottledLagBytes) {
        List<String> notes = new ArrayList<>(foreign);
        new TreeMap<>(leftOut)
                .forEach((broker, n) -> notes.add(String.format(
                        Locale.ROOT,
                        "broker %d: %d out-of-sync replica%s under %.1f MiB behind %s leader left unthrottled"
                                + " (leader.imbalance.catch.up.pacing.unthrottled.lag.bytes)",
                        broker,
                        n,
                        n == 1 ? "" : "s",
                        unthrottledLagBytes / 1048576.0,
                        n == 1 ? "its" : "their")));
        return notes;
    }

    /**
     * The plan for a decision. Never listed: the replicas of {@code unthrottled} topics (the canary's), and those of
     * a broker that is up known to be fewer than {@link CatchUpPacing#unthrottledLagBytes()} behind their leader. Why
     * the latter: once a broker is unfenced, Kafka's leader holds a partition's high watermark for a replica that
     * reached its log end within {@code replica.lag.time.max.ms}, in the ISR or not (KAFKA-15021); a throttle leaves
     * out of a fetch any listed replica while its quota is exceeded; together they hold {@code acks=all} writes up to
     * {@code replica.lag.time.max.ms} (evidence run 14).
     */
    static ThrottlePlan of(
            PacingDecision decision, RecoveryObservation observed, Set<String> unthrottled, CatchUpPacing config) {
        return of(decision, observed, unthrottled, config, Map.of());
    }

    /**
     * As {@link #of(PacingDecision, RecoveryObservation, Set, CatchUpPacing)}, with {@code foreignLeaders}: the leaders
     * whose leader quota someone else uses (their rate, or their leader entries naming them), with why, as the last
     * look read them. A preferred replica goes on the leader side only where that throttles nothing but it: the broker
     * is the partition's only replica out of its ISR (a leader entry throttles the leader's sends to every follower out
     * of the ISR, and another broker's replica may be close, escaped or paced otherwise), and its leader's quota is
     * one pacing may set and has to itself (under someone else's rate, the preferred replicas would catch up at a rate
     * pacing neither chose nor can change; under someone else's entries, pacing's rate would throttle theirs). The
     * others go on the follower side, and so does their share: the pacing rate is split over the leaders and the
     * follower side in proportion to the bytes behind of the preferred replicas each holds, where all are known; else
     * equally. Before, a preferred replica on the follower side waited at the min rate with the others while the
     * leader side took the whole rate: under produce load, with someone else's leader list on one of two leaders, the
     * catch-up fetched 0.58-0.73 of the rate (docs/evidence/partial-batch-probe/NOTES.md).
     *
     * <p>Every rate it writes is the rate decided plus the in-sync bytes per second Kafka counts on the same quota, as
     * measured: on a leader, what flowed into each partition it sends the preferred replicas of, times that
     * partition's in-sync followers; on a follower, what its listed in-sync replicas fetched. Without that, under
     * produce load those bytes take the catch-up's share: 3 MB/s of {@code acks=all} writes held a preferred catch-up
     * at 2.5 MiB/s per leader to less than its inflow, for good.
     */
    static ThrottlePlan of(
            PacingDecision decision,
            RecoveryObservation observed,
            Set<String> unthrottled,
            CatchUpPacing config,
            Map<Integer, String> foreignLeaders) {
        Placement placement = new Placement(observed, unthrottled, config, foreignLeaders);
        for (BrokerPacing b : decision.brokers()) {
            if (b.rateBytes().isPresent()) {
                placement.broker(b);
            }
        }
        return placement.plan(decision);
    }

    /**
     * Where the out-of-sync replicas of the paced brokers go (left out, the follower side, or their leader's side) and
     * the rates that follow from it, broker by broker; {@link #plan} then makes the plan of them.
     */
    private static final class Placement {
        private final RecoveryObservation observed;
        private final Set<String> unthrottled;
        private final CatchUpPacing config;
        private final Map<Integer, String> foreignLeaders;
        private final Map<Integer, Long> rates = new TreeMap<>();
        private long downRate = Long.MAX_VALUE;
        private final Map<String, Set<ThrottledReplicas.Replica>> entries = new TreeMap<>();
        private final Map<String, Set<ThrottledReplicas.Replica>> leaderEntries = new TreeMap<>();
        private final Map<Integer, Long> leaderRates = new TreeMap<>();
        private final Map<Integer, Double> leaderCharged = new TreeMap<>();
        private final Map<Integer, Integer> leftOut = new TreeMap<>();
        private final Map<Integer, Set<Integer>> usedForeign = new TreeMap<>();
        private final Map<Integer, Long> followerCharged = new TreeMap<>();
        private final Map<Integer, Map<Integer, Long>> sharesOf = new TreeMap<>();

        Placement(
                RecoveryObservation observed,
                Set<String> unthrottled,
                CatchUpPacing config,
                Map<Integer, String> foreignLeaders) {
            this.observed = observed;
            this.unthrottled = unthrottled;
            this.config = config;
            this.foreignLeaders = foreignLeaders;
        }

        /** One paced broker: each of its out-of-sync replicas placed, then its follower rate and its leaders' shares. */
        void broker(BrokerPacing b) {
            long rate = b.rateBytes().getAsLong();
            // In its caught-up grace, only the replicas of partitions known to take no writes (PacingPhase).
            boolean grace = b.phase() == PacingPhase.CAUGHT_UP_GRACE;
            PreferredSplit split = new PreferredSplit();
            boolean listed = false;
            for (PartitionState p : observed.outOfSync().getOrDefault(b.broker(), List.of())) {
                listed |= replica(b.broker(), grace, p, split);
            }
            // While its preferred replicas catch up, each of their leaders sends them a share of the pacing rate, and
            // the follower side gets the share of those it holds; the others wait at the min rate, or share that side.
            PreferredSplit.Split sides = split.split(rate, config.minRateBytes());
            Map<Integer, Long> shares = sides.leaderShares();
            long followerRate = sides.followerRate();
            sharesOf.put(b.broker(), shares);
            shares.forEach((l, share) -> leaderRates.merge(l, share, Long::sum));
            if (grace && !listed) {
                // Nothing of its own to throttle: a rate would throttle only lists someone else set.
                return;
            }
            if (observed.active().contains(b.broker())) {
                long charged = observed.signals(b.broker())
                        .map(x -> Math.round(x.flow().charged()))
                        .orElse(0L);
                followerCharged.put(b.broker(), charged);
                rates.put(b.broker(), followerRate + charged);
            } else {
                downRate = Math.min(downRate, followerRate);
            }
        }

        /**
         * Places one out-of-sync replica of {@code broker}: left out, on its leader's side, or listed on the follower
         * side; returns whether it was listed there.
         */
        private boolean replica(int broker, boolean grace, PartitionState p, PreferredSplit split) {
            if (unthrottled.contains(p.id().topic())) {
                return false;
            }
            if (grace && !withoutWrites(observed, p)) {
                // Its writes would wait for each throttled fetch: the decision's reason says so.
                return false;
            }
            if (observed.knownWithin(broker, p, config.unthrottledLagBytes())) {
                leftOut.merge(broker, 1, Integer::sum);
                return false;
            }
            boolean prefersIt = !grace
                    && config.preferredFirst()
                    && p.replicaAt(0) == broker
                    && p.hasLeader()
                    && p.leader() != broker;
            boolean preferred = prefersIt && p.replicaCount() - p.isrSize() == 1;
            if (preferred && foreignLeaders.containsKey(p.leader())) {
                usedForeign.computeIfAbsent(broker, k -> new TreeSet<>()).add(p.leader());
                preferred = false;
            }
            double inflow = observed.growth(p.leader(), p).orElse(0);
            if (prefersIt) {
                // On the follower side too a preferred replica goes first: that side gets its share in broker().
                split.add(preferred ? p.leader() : FOLLOWER_SIDE, observed.behind(broker, p), inflow);
            }
            if (!preferred) {
                entries.computeIfAbsent(p.id().topic(), t -> ThrottleLedger.sortedSet(List.of()))
                        .add(new ThrottledReplicas.Replica(p.id().partition(), broker));
                return true;
            }
            leaderEntries
                    .computeIfAbsent(p.id().topic(), t -> ThrottleLedger.sortedSet(List.of()))
                    .add(new ThrottledReplicas.Replica(p.id().partition(), p.leader()));
            // Its in-sync followers fetch what flows in, and Kafka counts those bytes on the leader's quota.
            leaderCharged.merge(p.leader(), inflow * Math.max(0, p.isrSize() - 1), Double::sum);
            return false;
        }

        ThrottlePlan plan(PacingDecision decision) {
            leaderCharged.forEach((l, c) -> leaderRates.computeIfPresent(l, (k, r) -> r + Math.round(c)));
            return new ThrottlePlan(
                    rates,
                    downRate == Long.MAX_VALUE ? OptionalLong.empty() : OptionalLong.of(downRate),
                    entries,
                    leftOut,
                    new LeaderSide(
                            leaderRates,
                            leaderEntries,
                            config.preferredFirst() && (!rates.isEmpty() || downRate != Long.MAX_VALUE)),
                    quotas(decision, rates, followerCharged, sharesOf, leaderCharged, leaderRates),
                    foreignNotes(usedForeign, foreignLeaders),
                    config.minRateBytes());
        }
    }

    /**
     * Whether a partition is known to take no writes: its leader's replica did not grow since the previous look (a
     * partition whose growth is not measured yet, as at the first look after a broker's start, may take writes).
     */
    private static boolean withoutWrites(RecoveryObservation observed, PartitionState p) {
        if (!p.hasLeader()) {
            return false;
        }
        OptionalDouble growth = observed.growth(p.leader(), p);
        return growth.isPresent() && growth.getAsDouble() <= 0;
    }

    /**
     * Per paced broker that is up, the rate decided and what pacing sets for its catch-up: its follower rate and the
     * shares of the leader rates its preferred replicas get, each with the in-sync bytes counted on it (a leader's
     * split over the brokers it sends preferred replicas to, by their shares).
     */
    private static Map<Integer, CatchUpQuota> quotas(
            PacingDecision decision,
            Map<Integer, Long> followerRates,
            Map<Integer, Long> followerCharged,
            Map<Integer, Map<Integer, Long>> sharesOf,
            Map<Integer, Double> leaderCharged,
            Map<Integer, Long> leaderRates) {
        Map<Integer, CatchUpQuota> out = new TreeMap<>();
        for (BrokerPacing b : decision.brokers()) {
            if (b.rateBytes().isEmpty() || !followerRates.containsKey(b.broker())) {
                continue;
            }
            long set = followerRates.get(b.broker());
            double charged = followerCharged.getOrDefault(b.broker(), 0L);
            for (Map.Entry<Integer, Long> e :
                    sharesOf.getOrDefault(b.broker(), Map.of()).entrySet()) {
                long all = leaderRates.getOrDefault(e.getKey(), 0L);
                double c = leaderCharged.getOrDefault(e.getKey(), 0.0);
                double ofAllShares = all - c <= 0 ? 0 : e.getValue() / (all - c);
                set += e.getValue() + Math.round(c * ofAllShares);
                charged += c * ofAllShares;
            }
            out.put(b.broker(), new CatchUpQuota(b.rateBytes().getAsLong(), set, Math.round(charged)));
        }
        return out;
    }

    /** Per paced broker whose preferred replicas stay on the follower side for a leader's quota someone else uses. */
    private static List<String> foreignNotes(Map<Integer, Set<Integer>> used, Map<Integer, String> why) {
        List<String> notes = new ArrayList<>();
        used.forEach((broker, leaders) -> {
            for (int l : leaders) {
                notes.add("broker " + broker + "'s preferred replicas led by broker " + l + " catch up on the"
                        + " follower side: broker " + l + "'s leader quota is used by someone else ("
                        + why.get(l) + "), which pacing does not set or share");
            }
        });
        return notes;
    }

    /**
     * {@code rate} split over leaders: in proportion to the bytes behind they send when {@code byBytes} (and some are
     * behind), else equally; at least 1 byte per second each, so that a leader with a share always has a rate.
     */
    static Map<Integer, Long> shares(long rate, Map<Integer, Long> behindByLeader, boolean byBytes) {
        return shares(rate, behindByLeader, Map.of(), byBytes);
    }

    /**
     * {@code rate} split over leaders: first what flows into the partitions each sends (a catch-up that does not get
     * its inflow never ends, however few bytes it lacks; when the inflows add up to more than the rate, the rate is
     * split in their proportion, and the stall detector raises it), then the rest in proportion to the bytes behind
     * they send when {@code byBytes} (and some are behind), else equally; at least 1 byte per second each.
     */
    static Map<Integer, Long> shares(
            long rate, Map<Integer, Long> behindByLeader, Map<Integer, Double> inflowByLeader, boolean byBytes) {
        Map<Integer, Long> out = new TreeMap<>();
        double inflow = behindByLeader.keySet().stream()
                .mapToDouble(l -> inflowByLeader.getOrDefault(l, 0.0))
                .sum();
        long total = behindByLeader.values().stream().mapToLong(Long::longValue).sum();
        double rest = Math.max(0, rate - inflow);
        for (Map.Entry<Integer, Long> e : behindByLeader.entrySet()) {
            double in = inflowByLeader.getOrDefault(e.getKey(), 0.0);
            double share;
            if (inflow >= rate) {
                share = rate * in / inflow;
            } else {
                share = in + (byBytes && total > 0 ? rest * e.getValue() / total : rest / behindByLeader.size());
            }
            out.put(e.getKey(), Math.max(1, (long) share));
        }
        return out;
    }
}
