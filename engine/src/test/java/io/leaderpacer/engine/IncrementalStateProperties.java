package io.leaderpacer.engine;

import io.leaderpacer.engine.cluster.ClusterSnapshot;
import io.leaderpacer.engine.cluster.ClusterState;
import io.leaderpacer.engine.cluster.PartialRead;
import io.leaderpacer.engine.cluster.PartitionState;
import io.leaderpacer.engine.cluster.ReadScope;
import io.leaderpacer.engine.cluster.SnapshotFollower;
import io.leaderpacer.engine.config.PacerConfig;
import io.leaderpacer.engine.schedule.RunOutcome;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The incremental path ({@link ClusterState} kept up to date by replaying changes) decides exactly as the full
 * path (a {@link ClusterSnapshot} of the same cluster), run after run, over random change sequences: partitions
 * changed (leader, ISR, ELR, replicas, reassignment, deletion), created and removed, brokers fenced, unfenced, shut
 * down and registered, under any configuration, with each path's own gate memory.
 */
class IncrementalStateProperties {

    /** One step: the partitions and brokers of another random cluster to replay, which ones, and which to remove. */
    record Step(ClusterSnapshot source, int replayMask, boolean brokersToo, int removeMask) {}

    @Provide
    Arbitrary<ClusterSnapshot> clusters() {
        return RandomClusters.clusters();
    }

    @Provide
    Arbitrary<PacerConfig> configs() {
        return RandomClusters.configs();
    }

    @Provide
    Arbitrary<List<Step>> steps() {
        Arbitrary<Integer> mask = Arbitraries.integers().between(0, Integer.MAX_VALUE);
        Arbitrary<Integer> removals = Arbitraries.integers().between(0, 7).map(k -> k == 0 ? 1 << 3 | 1 << 17 : 0);
        return Combinators.combine(RandomClusters.clusters(), mask, Arbitraries.of(true, false), removals)
                .as(Step::new)
                .list()
                .ofMaxSize(8);
    }

    @Property(tries = 300)
    void incrementalState_decidesAsTheFullSnapshot_runAfterRun(
            @ForAll("clusters") ClusterSnapshot start,
            @ForAll("configs") PacerConfig config,
            @ForAll("steps") List<Step> steps) {
        ClusterState state = ClusterState.of(start);
        BalancerMemory incremental = BalancerMemory.empty();
        BalancerMemory full = BalancerMemory.empty();
        long now = 0;
        for (int run = 0; run <= steps.size(); run++) {
            ClusterSnapshot snapshot = state.snapshot();
            ElectionDecision a = PreferredLeaderBalancer.decide(state, config, incremental, now);
            ElectionDecision b = PreferredLeaderBalancer.decide(snapshot, config, full, now);
            assertThat(a).as("run %d over %s", run, snapshot.partitions()).isEqualTo(b);
            incremental = a.nextMemory();
            full = b.nextMemory();
            // the run's own elections are replayed, as the controller replays its records
            for (PartitionState p : LeaderChanges.applyTo(snapshot, a).partitions()) {
                state.replay(p);
            }
            if (run < steps.size()) {
                apply(state, steps.get(run));
            }
            now += 60_000;
        }
    }

    @Property(tries = 200)
    void followedReads_decideAsEachReadItself(
            @ForAll("clusters") ClusterSnapshot start,
            @ForAll("configs") PacerConfig config,
            @ForAll("steps") List<Step> steps) {
        // The agent's path: successive full reads diffed into one state (SnapshotFollower).
        ClusterState truth = ClusterState.of(start);
        SnapshotFollower follower = new SnapshotFollower();
        BalancerMemory followed = BalancerMemory.empty();
        BalancerMemory read = BalancerMemory.empty();
        long now = 0;
        for (int run = 0; run <= steps.size(); run++) {
            ClusterSnapshot snapshot = truth.snapshot();
            ElectionDecision a = PreferredLeaderBalancer.decide(follower.follow(snapshot), config, followed, now);
            ElectionDecision b = PreferredLeaderBalancer.decide(snapshot, config, read, now);
            assertThat(a)
                    .as("run %d (%s) over %s", run, follower.lastStep(), snapshot.partitions())
                    .isEqualTo(b);
            followed = a.nextMemory();
            read = b.nextMemory();
            for (PartitionState p : LeaderChanges.applyTo(snapshot, a).partitions()) {
                truth.replay(p);
            }
            if (run < steps.size()) {
                apply(truth, steps.get(run));
            }
            now += 60_000;
        }
    }

    @Property(tries = 300)
    void partialReads_ofTheScope_decideAsAFullRead(
            @ForAll("clusters") ClusterSnapshot start,
            @ForAll("configs") PacerConfig config,
            @ForAll("steps") List<Step> steps) {
        // The agent's re-check: after a run that left work (a gated or recovering broker, a capped run), the next
        // run reads only the topics of its scope. Between runs the cluster changes within that scope only (no broker
        // event, no topic created or deleted: those are seen by every read and force a full one).
        ClusterState truth = ClusterState.of(inTopicOrder(start));
        SnapshotFollower follower = new SnapshotFollower();
        BalancerMemory followed = BalancerMemory.empty();
        BalancerMemory read = BalancerMemory.empty();
        Set<String> scope = null;
        long now = 0;
        for (int run = 0; run <= steps.size(); run++) {
            ClusterSnapshot snapshot = truth.snapshot();
            ClusterState state;
            if (scope == null) {
                state = follower.follow(snapshot);
            } else {
                Optional<ClusterState> partial = follower.followPartial(PartialRead.of(snapshot, scope));
                assertThat(partial)
                        .as("run %d: a read of %s with nothing changed outside it", run, scope)
                        .isPresent();
                state = partial.get();
            }
            ElectionDecision a = PreferredLeaderBalancer.decide(state, config, followed, now);
            ElectionDecision b = PreferredLeaderBalancer.decide(snapshot, config, read, now);
            assertThat(a)
                    .as("run %d (%s, scope %s) over %s", run, follower.lastStep(), scope, snapshot.partitions())
                    .isEqualTo(b);
            followed = a.nextMemory();
            read = b.nextMemory();
            scope = a.outcome() == RunOutcome.DONE
                    ? null
                    : ReadScope.topics(state, a.recoveringBrokers(), config.deprioritizedBrokers());
            for (PartitionState p : LeaderChanges.applyTo(snapshot, a).partitions()) {
                truth.replay(p);
            }
            if (run < steps.size()) {
                Set<String> within = scope;
                applyExisting(truth, steps.get(run), p -> within == null || within.contains(p.id().topic()));
            }
            now += 60_000;
        }
    }

    /** The snapshot with its partitions in topic then partition order, as the agent's reader lists them. */
    private static ClusterSnapshot inTopicOrder(ClusterSnapshot s) {
        List<PartitionState> sorted = s.partitions().stream()
                .sorted(Comparator.comparing((PartitionState p) -> p.id().topic())
                        .thenComparingInt(p -> p.id().partition()))
                .toList();
        return ClusterSnapshot.builder()
                .brokers(s.brokers().values())
                .partitions(sorted)
                .build();
    }

    /** Replays the step's partitions that the state already holds and that {@code allowed} admits; no broker, no removal. */
    private static void applyExisting(ClusterState state, Step step, Predicate<PartitionState> allowed) {
        List<PartitionState> parts = step.source().partitions();
        for (int i = 0; i < parts.size(); i++) {
            PartitionState p = parts.get(i);
            if ((step.replayMask() & (1 << (i % 31))) == 0 || state.partition(p.id()) == null || !allowed.test(p)) {
                continue;
            }
            boolean registered = true;
            for (int b : p.isr()) {
                registered &= state.registeredBrokerIds().contains(b);
            }
            for (int r : p.replicas()) {
                registered &= state.registeredBrokerIds().contains(r);
            }
            if (registered) {
                state.replay(p);
            }
        }
    }

    private static void apply(ClusterState state, Step step) {
        if (step.brokersToo()) {
            step.source().brokers().values().forEach(state::replay);
        }
        List<PartitionState> parts = step.source().partitions();
        for (int i = 0; i < parts.size(); i++) {
            if ((step.replayMask() & (1 << (i % 31))) == 0) {
                continue;
            }
            PartitionState p = parts.get(i);
            boolean registered = true;
            for (int b : p.isr()) {
                registered &= state.registeredBrokerIds().contains(b);
            }
            if (registered) {
                state.replay(p);
            }
            if ((step.removeMask() & (1 << (i % 31))) != 0) {
                state.remove(p.id());
            }
        }
    }
}
