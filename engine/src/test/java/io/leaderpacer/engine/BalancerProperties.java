package io.leaderpacer.engine;

import io.leaderpacer.engine.cluster.ClusterSnapshot;
import io.leaderpacer.engine.cluster.PartitionId;
import io.leaderpacer.engine.cluster.PartitionState;
import io.leaderpacer.engine.config.ConfigKey;
import io.leaderpacer.engine.config.PacerConfig;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Invariants of one run over random clusters and configurations: who may be elected, the cap,
 * the gate, the figures, and determinism.
 */
class BalancerProperties {

    @Provide
    Arbitrary<ClusterSnapshot> clusters() {
        return RandomClusters.clusters();
    }

    @Provide
    Arbitrary<PacerConfig> configs() {
        return RandomClusters.configs();
    }

    private static Map<PartitionId, PartitionState> byId(ClusterSnapshot cluster) {
        Map<PartitionId, PartitionState> m = new HashMap<>();
        cluster.partitions().forEach(p -> m.put(p.id(), p));
        return m;
    }

    private static boolean validLeader(ClusterSnapshot cluster, PartitionState p, int b) {
        boolean eligible = p.isrIsEmpty() ? p.elrContains(b) : p.isrContains(b);
        return cluster.isActive(b) && eligible;
    }

    @Property
    void newLeader_isActiveAndInIsr_orInElrOnlyWhenIsrIsEmpty_orNoLeaderWhenNoneCan(
            @ForAll("clusters") ClusterSnapshot cluster, @ForAll("configs") PacerConfig config) {
        ElectionDecision d = PreferredLeaderBalancer.decide(cluster, config, BalancerMemory.empty(), 0);
        Map<PartitionId, PartitionState> parts = byId(cluster);

        for (Election e : d.elections()) {
            PartitionState p = parts.get(e.partition());
            if (e.newLeader() == PartitionState.NO_LEADER) {
                // Kafka's "no leader": only when no replica at all could lead, and the partition named a leader.
                assertThat(p.hasLeader()).as("%s", p).isTrue();
                for (int i = 0; i < p.replicaCount(); i++) {
                    assertThat(validLeader(cluster, p, p.replicaAt(i)))
                            .as("%s: %d could lead", p, p.replicaAt(i))
                            .isFalse();
                }
                continue;
            }
            assertThat(cluster.isActive(e.newLeader())).as("%s active", e).isTrue();
            if (p.isrIsEmpty()) {
                assertThat(p.elrContains(e.newLeader()))
                        .as("%s in ELR of %s", e, p)
                        .isTrue();
            } else {
                assertThat(p.isrContains(e.newLeader()))
                        .as("%s in ISR of %s", e, p)
                        .isTrue();
            }
        }
    }

    @Property
    void elections_neverExceedTheCap_andMoreWorkMeansTheCapWasReached(
            @ForAll("clusters") ClusterSnapshot cluster, @ForAll("configs") PacerConfig config) {
        ElectionDecision d = PreferredLeaderBalancer.decide(cluster, config, BalancerMemory.empty(), 0);

        assertThat(d.elections().size()).isLessThanOrEqualTo(config.maxPerRun());
        assertThat(d.moreWork()).isEqualTo(d.elections().size() == config.maxPerRun());
        if (!d.moreWork()) {
            assertThat(d.deferredByThrottle()).isZero();
        }
    }

    @Property
    void elections_areRealChangesOncePerPartition_neverDeleting_reassigningOnlyUnderImmediate(
            @ForAll("clusters") ClusterSnapshot cluster, @ForAll("configs") PacerConfig config) {
        ElectionDecision d = PreferredLeaderBalancer.decide(cluster, config, BalancerMemory.empty(), 0);
        Map<PartitionId, PartitionState> parts = byId(cluster);
        EffectiveReplicaOrder order = EffectiveReplicaOrder.of(config.deprioritizedBrokers());

        Set<PartitionId> seen = new HashSet<>();
        for (Election e : d.elections()) {
            PartitionState p = parts.get(e.partition());
            assertThat(seen.add(e.partition()))
                    .as("%s elected twice", e.partition())
                    .isTrue();
            assertThat(p.topicDeleting()).as("%s", p).isFalse();
            assertThat(config.waitForSync() && p.reassigning())
                    .as("wait-for-sync keeps KIP-1358's guard: %s", p)
                    .isFalse();
            assertThat(e.previousLeader()).isEqualTo(p.leader());
            assertThat(e.newLeader()).isNotEqualTo(p.leader());
            assertThat(e.preferredBroker()).isEqualTo(order.preferred(p));
            if (validLeader(cluster, p, e.preferredBroker())) {
                assertThat(e.newLeader())
                        .as("valid preferred replica wins: %s", p)
                        .isEqualTo(e.preferredBroker());
            } else {
                assertThat(p.hasLeader() && validLeader(cluster, p, p.leader()))
                        .as("a valid current leader is kept: %s", p)
                        .isFalse();
            }
        }
    }

    @Property
    void gatedBroker_receivesNoPreferredLeadership(
            @ForAll("clusters") ClusterSnapshot cluster, @ForAll("configs") PacerConfig config) {
        ElectionDecision d = PreferredLeaderBalancer.decide(cluster, config, BalancerMemory.empty(), 0);
        Map<PartitionId, PartitionState> parts = byId(cluster);

        for (Election e : d.elections()) {
            assertThat(d.isGated(e.preferredBroker()))
                    .as("%s comes from a gated broker's bucket", e)
                    .isFalse();
            if (d.isGated(e.newLeader())) {
                // Only a partition with no valid leader at all may land on a gated broker, as a
                // failover would: never as that broker's preferred leadership.
                PartitionState p = parts.get(e.partition());
                assertThat(e.toPreferred()).isFalse();
                assertThat(p.hasLeader() && validLeader(cluster, p, p.leader())).isFalse();
            }
        }
    }

    @Property
    void sameInput_givesTheSameDecision(
            @ForAll("clusters") ClusterSnapshot cluster, @ForAll("configs") PacerConfig config) {
        ElectionDecision first = PreferredLeaderBalancer.decide(cluster, config, BalancerMemory.empty(), 1_000);
        ClusterSnapshot copy = cluster.toBuilder().build();
        PacerConfig sameConfig = PacerConfig.fromMap(config.toMap());

        ElectionDecision second = PreferredLeaderBalancer.decide(copy, sameConfig, BalancerMemory.empty(), 1_000);
        ElectionDecision third = PreferredLeaderBalancer.decide(cluster, config, first.nextMemory(), 2_000);
        ElectionDecision fourth = PreferredLeaderBalancer.decide(copy, sameConfig, second.nextMemory(), 2_000);

        assertThat(second).isEqualTo(first);
        assertThat(fourth).isEqualTo(third);
        assertThat(second.explain()).isEqualTo(first.explain());
    }

    @Property
    void figures_addUp(@ForAll("clusters") ClusterSnapshot cluster, @ForAll("configs") PacerConfig config) {
        ElectionDecision d = PreferredLeaderBalancer.decide(cluster, config, BalancerMemory.empty(), 0);
        EffectiveReplicaOrder order = EffectiveReplicaOrder.of(config.deprioritizedBrokers());

        long imbalanced = cluster.partitions().stream()
                .filter(p -> p.leader() != order.preferred(p))
                .count();
        long electable = cluster.partitions().stream()
                .filter(p -> !p.topicDeleting() && !(config.waitForSync() && p.reassigning()))
                .filter(p -> p.leader() != order.preferred(p))
                .filter(p -> PreferredElection.decide(p, cluster, order) != PreferredElection.NO_CHANGE)
                .count();
        int elected =
                d.brokers().stream().mapToInt(report -> report.run().elected()).sum();
        int skipped = d.brokers().stream()
                .mapToInt(report -> report.run().skippedByGate())
                .sum();
        int deferred = d.brokers().stream()
                .mapToInt(report -> report.run().deferredByThrottle())
                .sum();

        assertThat(d.imbalancedCount()).isEqualTo(imbalanced);
        assertThat(elected).isEqualTo(d.elections().size());
        assertThat(skipped).isEqualTo(d.skippedByGate());
        // Under both algorithms the cap defers exactly the valid elections it did not make (immediate: those among
        // the candidates after the cap, which Kafka's loop leaves unexamined), counted per preferred broker.
        assertThat(deferred).isEqualTo(d.deferredByThrottle());
        assertThat((long) d.elections().size() + d.skippedByGate() + d.deferredByThrottle())
                .isEqualTo(electable);
        if (!config.waitForSync()) {
            assertThat(d.skippedByGate()).isZero();
        }
        for (BrokerGateReport r : d.brokers()) {
            List<PartitionState> preferring = cluster.partitions().stream()
                    .filter(p -> !p.reassigning() && !p.topicDeleting() && order.preferred(p) == r.broker())
                    .collect(Collectors.toList());
            assertThat(r.partitions().preferredPartitions())
                    .as("broker %d", r.broker())
                    .isEqualTo(preferring.size());
            assertThat(r.partitions().outOfSync())
                    .as("broker %d", r.broker())
                    .isEqualTo(preferring.stream()
                            .filter(p -> !p.isrContains(r.broker()))
                            .count());
        }
    }

    @Property
    void roundRobin_noEligibleBrokerFallsMoreThanOneBehindUnlessItRanOut(
            @ForAll("clusters") ClusterSnapshot cluster, @ForAll("configs") PacerConfig anyConfig) {
        PacerConfig config = anyConfig.with(ConfigKey.ALGORITHM.key(), "wait-for-sync");
        ElectionDecision d = PreferredLeaderBalancer.decide(cluster, config, BalancerMemory.empty(), 0);

        List<BrokerGateReport> eligible = new ArrayList<>();
        for (BrokerGateReport r : d.brokers()) {
            if (!r.blocksElections() && r.run().elected() + r.run().deferredByThrottle() > 0) {
                eligible.add(r);
            }
        }
        int most = eligible.stream()
                .mapToInt(report -> report.run().elected())
                .max()
                .orElse(0);
        for (BrokerGateReport r : eligible) {
            if (r.run().elected() < most - 1) {
                assertThat(r.run().deferredByThrottle())
                        .as("broker %d fell behind with work left", r.broker())
                        .isZero();
            }
        }
    }

    @Property
    void waitForSyncWithoutGatingOrCap_electsTheSamePartitionsAsImmediate_apartFromReassignments(
            @ForAll("clusters") ClusterSnapshot cluster, @ForAll("configs") PacerConfig anyConfig) {
        PacerConfig immediate = anyConfig.withUpdates(
                Map.of(ConfigKey.ALGORITHM.key(), "immediate", ConfigKey.MAX_PER_RUN.key(), "1000"));
        PacerConfig open = immediate.withUpdates(
                Map.of(ConfigKey.ALGORITHM.key(), "wait-for-sync", ConfigKey.THRESHOLD_PERCENT.key(), "100"));

        // Immediate also elects under reassignment (Kafka's loop does); wait-for-sync keeps KIP-1358's guard.
        Map<PartitionId, PartitionState> parts = byId(cluster);
        Set<Election> a =
                PreferredLeaderBalancer.decide(cluster, immediate, BalancerMemory.empty(), 0).elections().stream()
                        .filter(e -> !parts.get(e.partition()).reassigning())
                        .collect(Collectors.toSet());
        Set<Election> b = new HashSet<>(PreferredLeaderBalancer.decide(cluster, open, BalancerMemory.empty(), 0)
                .elections());

        assertThat(b).isEqualTo(a);
    }

    @Property
    void deprioritizedBroker_isPreferredOnlyWhenAllReplicasAreDeprioritized(
            @ForAll("clusters") ClusterSnapshot cluster, @ForAll("configs") PacerConfig config) {
        ElectionDecision d = PreferredLeaderBalancer.decide(cluster, config, BalancerMemory.empty(), 0);
        Map<PartitionId, PartitionState> parts = byId(cluster);

        for (Election e : d.elections()) {
            if (config.isDeprioritized(e.newLeader())) {
                PartitionState p = parts.get(e.partition());
                for (int i = 0; i < p.replicaCount(); i++) {
                    int r = p.replicaAt(i);
                    if (!config.isDeprioritized(r)) {
                        assertThat(validLeader(cluster, p, r))
                                .as("%s went to deprioritized %d while %d could lead", p, e.newLeader(), r)
                                .isFalse();
                    }
                }
            }
        }
    }

    @Property
    void deprioritizingAnAbsentBroker_changesNothing(
            @ForAll("clusters") ClusterSnapshot cluster, @ForAll("configs") PacerConfig anyConfig) {
        // An empty list takes the snapshot's column fast path; a list naming a broker that holds
        // no replica takes the general path over partition objects. Both must decide alike.
        PacerConfig plain = anyConfig.with(ConfigKey.DEPRIORITIZED_LIST.key(), "");
        PacerConfig absent = anyConfig.with(ConfigKey.DEPRIORITIZED_LIST.key(), "99");

        ElectionDecision a = PreferredLeaderBalancer.decide(cluster, plain, BalancerMemory.empty(), 0);
        ElectionDecision b = PreferredLeaderBalancer.decide(cluster, absent, BalancerMemory.empty(), 0);
        ElectionDecision a2 = PreferredLeaderBalancer.decide(cluster, plain, a.nextMemory(), 300_000);
        ElectionDecision b2 = PreferredLeaderBalancer.decide(cluster, absent, b.nextMemory(), 300_000);

        assertThat(b.elections()).isEqualTo(a.elections());
        assertThat(b.brokers()).isEqualTo(a.brokers());
        assertThat(b.nextMemory()).isEqualTo(a.nextMemory());
        assertThat(b.skippedByGate()).isEqualTo(a.skippedByGate());
        assertThat(b.deferredByThrottle()).isEqualTo(a.deferredByThrottle());
        assertThat(b.imbalancedCount()).isEqualTo(a.imbalancedCount());
        assertThat(b2.elections()).isEqualTo(a2.elections());
        assertThat(b2.brokers()).isEqualTo(a2.brokers());
    }
}
