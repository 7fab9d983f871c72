package io.leaderpacer.agent.pacing;

import io.leaderpacer.agent.throttle.ThrottledReplicas;
import io.leaderpacer.engine.cluster.PartitionState;
import io.leaderpacer.engine.config.CatchUpPacing;
import io.leaderpacer.engine.pacing.BrokerPacing;
import io.leaderpacer.engine.pacing.PacingDecision;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;

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
 */
record ThrottlePlan(
        Map<Integer, Long> brokerRates,
        OptionalLong defaultRate,
        Map<String, Set<ThrottledReplicas.Replica>> entries,
        Map<Integer, Integer> leftOut,
        LeaderSide leader) {

    static final ThrottlePlan NONE = new ThrottlePlan(Map.of(), OptionalLong.empty(), Map.of());

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
    }

    /** A follower-side plan that left no replica out for being close. */
    ThrottlePlan(
            Map<Integer, Long> brokerRates,
            OptionalLong defaultRate,
            Map<String, Set<ThrottledReplicas.Replica>> entries) {
        this(brokerRates, defaultRate, entries, Map.of(), LeaderSide.NONE);
    }

    /** For /status: per broker with replicas left out for being close, how many and why. */
    List<String> notes(long unthrottledLagBytes) {
        List<String> notes = new ArrayList<>();
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
        return of(decision, observed, unthrottled, config, Set.of());
    }

    /**
     * As {@link #of(PacingDecision, RecoveryObservation, Set, CatchUpPacing)}, with {@code foreignLeaderRates}: the
     * brokers whose leader rate someone else set (as the last look read them). A preferred replica goes on the leader
     * side only where that throttles nothing but it: the broker is the partition's only replica out of its ISR (a
     * leader entry throttles the leader's sends to every follower out of the ISR, and another broker's replica may be
     * close, escaped or paced otherwise), and its leader's rate is one pacing may set (under someone else's rate, the
     * preferred replicas would catch up at a rate pacing neither chose nor can change). The others go on the
     * follower side. Each leader's share of the pacing rate is in proportion to the bytes behind of the replicas it
     * sends, where all are known; else equal.
     */
    static ThrottlePlan of(
            PacingDecision decision,
            RecoveryObservation observed,
            Set<String> unthrottled,
            CatchUpPacing config,
            Set<Integer> foreignLeaderRates) {
        Map<Integer, Long> rates = new TreeMap<>();
        long downRate = Long.MAX_VALUE;
        Map<String, Set<ThrottledReplicas.Replica>> entries = new TreeMap<>();
        Map<String, Set<ThrottledReplicas.Replica>> leaderEntries = new TreeMap<>();
        Map<Integer, Long> leaderRates = new TreeMap<>();
        Map<Integer, Integer> leftOut = new TreeMap<>();
        for (BrokerPacing b : decision.brokers()) {
            if (b.rateBytes().isEmpty()) {
                continue;
            }
            long rate = b.rateBytes().getAsLong();
            Map<Integer, Long> leaderBehind = new TreeMap<>();
            boolean allKnown = true;
            for (PartitionState p : observed.outOfSync().getOrDefault(b.broker(), List.of())) {
                if (unthrottled.contains(p.id().topic())) {
                    continue;
                }
                if (observed.knownWithin(b.broker(), p, config.unthrottledLagBytes())) {
                    leftOut.merge(b.broker(), 1, Integer::sum);
                    continue;
                }
                if (config.preferredFirst()
                        && p.replicaAt(0) == b.broker()
                        && p.hasLeader()
                        && p.leader() != b.broker()
                        && p.replicaCount() - p.isrSize() == 1
                        && !foreignLeaderRates.contains(p.leader())) {
                    leaderEntries
                            .computeIfAbsent(p.id().topic(), t -> ThrottleLedger.sortedSet(List.of()))
                            .add(new ThrottledReplicas.Replica(p.id().partition(), p.leader()));
                    OptionalLong lacks = observed.behind(b.broker(), p);
                    allKnown &= lacks.isPresent();
                    leaderBehind.merge(p.leader(), lacks.orElse(0), Long::sum);
                } else {
                    entries.computeIfAbsent(p.id().topic(), t -> ThrottleLedger.sortedSet(List.of()))
                            .add(new ThrottledReplicas.Replica(p.id().partition(), b.broker()));
                }
            }
            // While its preferred replicas catch up, the others wait at the min rate; each of their leaders sends the
            // preferred ones a share of the pacing rate.
            long followerRate = leaderBehind.isEmpty() ? rate : Math.min(rate, config.minRateBytes());
            shares(rate, leaderBehind, allKnown).forEach((l, share) -> leaderRates.merge(l, share, Long::sum));
            if (observed.active().contains(b.broker())) {
                rates.put(b.broker(), followerRate);
            } else {
                downRate = Math.min(downRate, followerRate);
            }
        }
        return new ThrottlePlan(
                rates,
                downRate == Long.MAX_VALUE ? OptionalLong.empty() : OptionalLong.of(downRate),
                entries,
                leftOut,
                new LeaderSide(
                        leaderRates,
                        leaderEntries,
                        config.preferredFirst() && (!rates.isEmpty() || downRate != Long.MAX_VALUE)));
    }

    /**
     * {@code rate} split over leaders: in proportion to the bytes behind they send when {@code byBytes} (and some are
     * behind), else equally; at least 1 byte per second each, so that a leader with a share always has a rate.
     */
    static Map<Integer, Long> shares(long rate, Map<Integer, Long> behindByLeader, boolean byBytes) {
        Map<Integer, Long> out = new TreeMap<>();
        long total = behindByLeader.values().stream().mapToLong(Long::longValue).sum();
        for (Map.Entry<Integer, Long> e : behindByLeader.entrySet()) {
            long share =
                    byBytes && total > 0 ? (long) ((double) rate * e.getValue() / total) : rate / behindByLeader.size();
            out.put(e.getKey(), Math.max(1, share));
        }
        return out;
    }
}
