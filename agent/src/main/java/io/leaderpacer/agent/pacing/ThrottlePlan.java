package io.leaderpacer.agent.pacing;

import io.leaderpacer.agent.throttle.ThrottledReplicas;
import io.leaderpacer.engine.cluster.PartitionState;
import io.leaderpacer.engine.pacing.BrokerPacing;
import io.leaderpacer.engine.pacing.PacingDecision;

import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;

/**
 * The follower throttle a pacing decision asks for: a rate per paced broker and the replica entries of its
 * out-of-sync replicas, but for those within a fetch or so of their leader.
 *
 * <p>Where the rate goes: Kafka sends a per-broker config to that broker, so a broker that is down cannot get one;
 * and the rate must be in force when its fetchers start. So a paced broker that is down is covered by the
 * cluster-default follower rate (the least rate among the paced brokers that are down), and one that is up by a
 * per-broker rate (which takes precedence over the default). The default throttles only partitions whose lists name
 * a broker, and pacing's entries name only paced brokers.
 *
 * @param brokerRates per paced broker that is active, its rate in bytes per second
 * @param defaultRate the cluster default, when a paced broker is down
 * @param entries     per topic, the entries naming a paced broker's out-of-sync replicas
 * @param leftOut     per paced broker, how many of its out-of-sync replicas were left out for being close
 */
record ThrottlePlan(Map<Integer, Long> brokerRates, OptionalLong defaultRate,
                    Map<String, Set<ThrottledReplicas.Replica>> entries, Map<Integer, Integer> leftOut) {

    static final ThrottlePlan NONE = new ThrottlePlan(Map.of(), OptionalLong.empty(), Map.of());

    ThrottlePlan {
        brokerRates = Map.copyOf(brokerRates);
        entries = Map.copyOf(entries);
        leftOut = Map.copyOf(leftOut);
    }

    /** A plan that left no replica out for being close. */
    ThrottlePlan(Map<Integer, Long> brokerRates, OptionalLong defaultRate,
                 Map<String, Set<ThrottledReplicas.Replica>> entries) {
        this(brokerRates, defaultRate, entries, Map.of());
    }

    /** For /status: per broker with replicas left out for being close, how many and why. */
    List<String> notes(long unthrottledLagBytes) {
        List<String> notes = new java.util.ArrayList<>();
        new TreeMap<>(leftOut).forEach((broker, n) -> notes.add(String.format(java.util.Locale.ROOT,
                "broker %d: %d out-of-sync replica%s under %.1f MiB behind %s leader left unthrottled"
                        + " (leader.imbalance.catch.up.pacing.unthrottled.lag.bytes)", broker, n, n == 1 ? "" : "s",
                unthrottledLagBytes / 1048576.0, n == 1 ? "its" : "their")));
        return notes;
    }

    /**
     * The plan for a decision. Never listed: the replicas of {@code unthrottled} topics (the canary's), and those of
     * a broker that is up known to be fewer than {@code unthrottledLagBytes} behind their leader. Why the latter:
     * once a broker is unfenced, Kafka's leader holds a partition's high watermark for a replica that reached its
     * log end within {@code replica.lag.time.max.ms}, in the ISR or not (KAFKA-15021); the follower throttle leaves
     * out of a fetch any listed replica whose last fetch left it behind the high watermark, while the quota is
     * exceeded; together they hold {@code acks=all} writes up to {@code replica.lag.time.max.ms} (evidence run 14).
     */
    static ThrottlePlan of(PacingDecision decision, RecoveryObservation observed, Set<String> unthrottled,
                           long unthrottledLagBytes) {
        Map<Integer, Long> rates = new TreeMap<>();
        long downRate = Long.MAX_VALUE;
        Map<String, Set<ThrottledReplicas.Replica>> entries = new TreeMap<>();
        Map<Integer, Integer> leftOut = new TreeMap<>();
        for (BrokerPacing b : decision.brokers()) {
            if (b.rateBytes().isEmpty()) {
                continue;
            }
            long rate = b.rateBytes().getAsLong();
            if (observed.active().contains(b.broker())) {
                rates.put(b.broker(), rate);
            } else {
                downRate = Math.min(downRate, rate);
            }
            for (PartitionState p : observed.outOfSync().getOrDefault(b.broker(), List.of())) {
                if (unthrottled.contains(p.id().topic())) {
                    continue;
                }
                if (observed.knownWithin(b.broker(), p, unthrottledLagBytes)) {
                    leftOut.merge(b.broker(), 1, Integer::sum);
                    continue;
                }
                entries.computeIfAbsent(p.id().topic(), t -> ThrottleLedger.sortedSet(List.of()))
                        .add(new ThrottledReplicas.Replica(p.id().partition(), b.broker()));
            }
        }
        return new ThrottlePlan(rates, downRate == Long.MAX_VALUE ? OptionalLong.empty() : OptionalLong.of(downRate),
                entries, leftOut);
    }
}
