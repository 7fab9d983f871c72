package io.leaderpacer.engine;

import io.leaderpacer.engine.cluster.BrokerState;
import io.leaderpacer.engine.cluster.ClusterSnapshot;
import io.leaderpacer.engine.cluster.PartitionId;
import io.leaderpacer.engine.cluster.PartitionState;
import io.leaderpacer.engine.config.ConfigKey;
import io.leaderpacer.engine.config.PacerConfig;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

/**
 * jqwik generators for the property tests: small random clusters with every kind of broker
 * (active, fenced, shutting down, unregistered) and every kind of partition (random assignment,
 * ISR, ELR, leader or none, under reassignment, topic being deleted), and random configurations.
 *
 * <p>Clusters are small (at most 8 brokers, 60 partitions) so that jqwik can try many and shrink a
 * failure to something a person can read.
 */
public final class RandomClusters {

    /** How a generated broker stands. */
    enum Liveness {
        ACTIVE,
        FENCED,
        SHUTTING_DOWN,
        UNREGISTERED
    }

    /** A generated partition, before it is fitted to the brokers that exist. */
    record PartitionSpec(
            List<Integer> replicas, int isrMask, int elrMask, int leaderPick, boolean reassigning, boolean deleting) {}

    private RandomClusters() {}

    public static Arbitrary<ClusterSnapshot> clusters() {
        return Arbitraries.integers()
                .between(3, 8)
                .flatMap(brokers -> Combinators.combine(
                                livenesses(brokers),
                                partitionSpecs(brokers).list().ofMaxSize(60))
                        .as(RandomClusters::build));
    }

    /** Any configuration, either algorithm, both gate variants. */
    public static Arbitrary<PacerConfig> configs() {
        Arbitrary<String> algorithm = Arbitraries.of("immediate", "wait-for-sync");
        Arbitrary<String> threshold = Arbitraries.oneOf(
                Arbitraries.of("0", "5", "50", "100"),
                Arbitraries.doubles().between(0, 100).ofScale(1).map(String::valueOf));
        Arbitrary<Integer> maxPerRun = Arbitraries.integers().between(1, 40);
        Arbitrary<String> maxWait = Arbitraries.of("0", "1000", "600000", "1800000");
        Arbitrary<String> deprioritized = Arbitraries.integers()
                .between(0, 7)
                .set()
                .ofMaxSize(3)
                .map(s -> {
                    StringJoiner j = new StringJoiner(",");
                    s.forEach(b -> j.add(Integer.toString(b)));
                    return j.toString();
                });
        Arbitrary<String> denominator = Arbitraries.of("all-preferred", "imbalanced-only");
        Arbitrary<String> clock = Arbitraries.of("while-active", "wall");
        Arbitrary<String> throttle = Arbitraries.of("0", "15000");
        return Combinators.combine(
                        algorithm, threshold, maxPerRun, maxWait, deprioritized, denominator, clock, throttle)
                .as((a, t, m, w, d, den, c, th) -> {
                    Map<String, String> values = new LinkedHashMap<>();
                    values.put(ConfigKey.ALGORITHM.key(), a);
                    values.put(ConfigKey.THRESHOLD_PERCENT.key(), t);
                    values.put(ConfigKey.MAX_PER_RUN.key(), Integer.toString(m));
                    values.put(ConfigKey.MAX_WAIT_MS.key(), w);
                    values.put(ConfigKey.DEPRIORITIZED_LIST.key(), d);
                    values.put(ConfigKey.GATE_DENOMINATOR.key(), den);
                    values.put(ConfigKey.MAX_WAIT_CLOCK.key(), c);
                    values.put(ConfigKey.THROTTLE_INTERVAL_MS.key(), th);
                    return PacerConfig.fromMap(values);
                });
    }

    /** Liveness of brokers 0..n-1, mostly active so that elections happen. */
    private static Arbitrary<List<Liveness>> livenesses(int n) {
        return Arbitraries.frequencyOf(
                        net.jqwik.api.Tuple.of(6, Arbitraries.just(Liveness.ACTIVE)),
                        net.jqwik.api.Tuple.of(1, Arbitraries.just(Liveness.FENCED)),
                        net.jqwik.api.Tuple.of(1, Arbitraries.just(Liveness.SHUTTING_DOWN)),
                        net.jqwik.api.Tuple.of(1, Arbitraries.just(Liveness.UNREGISTERED)))
                .list()
                .ofSize(n);
    }

    private static Arbitrary<PartitionSpec> partitionSpecs(int brokers) {
        Arbitrary<List<Integer>> replicas = Arbitraries.integers()
                .between(0, brokers - 1)
                .list()
                .ofMinSize(1)
                .ofMaxSize(Math.min(4, brokers))
                .uniqueElements();
        // ISR bits are set 3 times in 4 so that most partitions have their preferred replica in sync.
        Arbitrary<Integer> isrMask =
                Arbitraries.integers().between(0, 15).list().ofSize(2).map(two -> two.get(0) | two.get(1));
        Arbitrary<Integer> elrMask = Arbitraries.integers().between(0, 15);
        Arbitrary<Integer> leaderPick = Arbitraries.integers().between(-1, 3);
        Arbitrary<Boolean> rare = Arbitraries.integers().between(0, 9).map(i -> i == 0);
        return Combinators.combine(replicas, isrMask, elrMask, leaderPick, rare, rare)
                .as(PartitionSpec::new);
    }

    static ClusterSnapshot build(List<Liveness> liveness, List<PartitionSpec> specs) {
        ClusterSnapshot.Builder b = ClusterSnapshot.builder();
        for (int id = 0; id < liveness.size(); id++) {
            switch (liveness.get(id)) {
                case ACTIVE -> b.broker(BrokerState.active(id));
                case FENCED -> b.broker(BrokerState.fenced(id));
                case SHUTTING_DOWN -> b.broker(BrokerState.shuttingDown(id));
                case UNREGISTERED -> {}
            }
        }
        for (int i = 0; i < specs.size(); i++) {
            PartitionSpec s = specs.get(i);
            int n = s.replicas().size();
            int[] replicas = s.replicas().stream().mapToInt(Integer::intValue).toArray();
            List<Integer> isr = new ArrayList<>();
            List<Integer> elr = new ArrayList<>();
            for (int k = 0; k < n; k++) {
                boolean registered = liveness.get(replicas[k]) != Liveness.UNREGISTERED;
                if ((s.isrMask() & (1 << k)) != 0 && registered) {
                    isr.add(replicas[k]);
                } else if ((s.elrMask() & (1 << k)) != 0) {
                    elr.add(replicas[k]);
                }
            }
            int leader =
                    s.leaderPick() < 0 || s.leaderPick() >= n ? PartitionState.NO_LEADER : replicas[s.leaderPick()];
            b.partition(new PartitionState(
                    new PartitionId("t" + (i % 3), i),
                    replicas,
                    isr.stream().mapToInt(Integer::intValue).toArray(),
                    elr.stream().mapToInt(Integer::intValue).toArray(),
                    leader,
                    s.reassigning(),
                    s.deleting()));
        }
        return b.build();
    }
}
