package io.leaderpacer.engine;

import io.leaderpacer.engine.cluster.BrokerState;
import io.leaderpacer.engine.cluster.ClusterSnapshot;
import io.leaderpacer.engine.cluster.ClusterState;
import io.leaderpacer.engine.cluster.PartitionId;
import io.leaderpacer.engine.cluster.PartitionState;
import io.leaderpacer.engine.config.ConfigKey;
import io.leaderpacer.engine.config.PacerConfig;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The run over incremental state reads its candidate index (per-broker buckets, per-leader bags, the walk of
 * candidates worth examining) instead of every candidate; it must still decide exactly as the full snapshot,
 * counts included. This property drives what moves candidates between those sets: brokers fenced, shut down and
 * back (a leader's out-of-sync candidates become worth a look and stop being), ISR and leader changes, a first
 * replica changing to another broker (a partition's slot moving into the middle of another broker's list),
 * partitions removed and new ones appended, and each run's own elections replayed. Assignment order only (an
 * empty deprioritized list): that is the path the index serves.
 */
class CandidateIndexProperties {

    /** One change: a broker's new state, or a partition from another random cluster to replay or remove. */
    record Change(int kind, int broker, int liveness, int pick) {}

    @Provide
    Arbitrary<ClusterSnapshot> clusters() {
        return RandomClusters.clusters();
    }

    @Provide
    Arbitrary<PacerConfig> configs() {
        return RandomClusters.configs().map(c -> c.withUpdates(Map.of(ConfigKey.DEPRIORITIZED_LIST.key(), "")));
    }

    @Provide
    Arbitrary<List<List<Change>>> runs() {
        Arbitrary<Change> change = Combinators.combine(
                        Arbitraries.integers().between(0, 3),
                        Arbitraries.integers().between(0, 7),
                        Arbitraries.integers().between(0, 2),
                        Arbitraries.integers().between(0, 1000))
                .as(Change::new);
        return change.list().ofMaxSize(6).list().ofMaxSize(10);
    }

    @Property(tries = 400)
    void runOverTheCandidateIndex_decidesAsTheFullSnapshot(
            @ForAll("clusters") ClusterSnapshot start,
            @ForAll("clusters") ClusterSnapshot other,
            @ForAll("configs") PacerConfig config,
            @ForAll("runs") List<List<Change>> runs) {
        ClusterState state = ClusterState.of(start);
        BalancerMemory incremental = BalancerMemory.empty();
        BalancerMemory full = BalancerMemory.empty();
        long now = 0;
        int fresh = 0;
        for (int run = 0; run <= runs.size(); run++) {
            ClusterSnapshot snapshot = state.snapshot();
            ElectionDecision a = PreferredLeaderBalancer.decide(state, config, incremental, now);
            ElectionDecision b = PreferredLeaderBalancer.decide(snapshot, config, full, now);
            assertThat(a).as("run %d over %s", run, snapshot.partitions()).isEqualTo(b);
            incremental = a.nextMemory();
            full = b.nextMemory();
            for (PartitionState p : LeaderChanges.applyTo(snapshot, a).partitions()) {
                state.replay(p);
            }
            if (run == runs.size()) {
                break;
            }
            for (Change c : runs.get(run)) {
                fresh = apply(state, other, c, fresh);
            }
            now += 60_000;
        }
    }

    private static int apply(ClusterState state, ClusterSnapshot other, Change c, int fresh) {
        switch (c.kind()) {
            case 0 ->
                state.replay(
                        switch (c.liveness()) {
                            case 0 -> BrokerState.active(c.broker());
                            case 1 -> BrokerState.fenced(c.broker());
                            default -> BrokerState.shuttingDown(c.broker());
                        });
            case 1, 2 -> {
                List<PartitionState> parts = other.partitions();
                if (parts.isEmpty()) {
                    return fresh;
                }
                PartitionState p = parts.get(c.pick() % parts.size());
                if (c.kind() == 2) {
                    // a new partition, appended after every position
                    p = new PartitionState(
                            new PartitionId("new", fresh++),
                            p.replicas(),
                            p.isr(),
                            p.elr(),
                            p.leader(),
                            p.reassigning(),
                            p.topicDeleting());
                }
                if (registered(state, p)) {
                    state.replay(p);
                }
            }
            default -> {
                List<PartitionState> live = new ArrayList<>(state.snapshot().partitions());
                if (!live.isEmpty()) {
                    state.remove(live.get(c.pick() % live.size()).id());
                }
            }
        }
        return fresh;
    }

    private static boolean registered(ClusterState state, PartitionState p) {
        for (int b : p.isr()) {
            if (!state.registeredBrokerIds().contains(b)) {
                return false;
            }
        }
        return true;
    }
}
