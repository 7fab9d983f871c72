package io.leaderpacer.agent.reorder;

import io.leaderpacer.engine.EffectiveReplicaOrder;
import io.leaderpacer.engine.cluster.ClusterSnapshot;
import io.leaderpacer.engine.cluster.PartitionId;
import io.leaderpacer.engine.cluster.PartitionState;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Assume;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The planner's invariants over random assignments, list histories and crash points, applied to an in-memory
 * model of the cluster and the state topic that performs each plan the way the step does (write-ahead, reassign,
 * confirm) and can stop at either crash point.
 */
class ReorderPlannerProperties {

    enum Crash {
        NONE,
        AFTER_WRITE_AHEAD,
        AFTER_REASSIGNMENT
    }

    record Step(Set<Integer> list, Crash crash) {}

    /** The cluster's replica orders and the state topic, changed only as the step would change them. */
    static final class Model {
        final Map<PartitionId, List<Integer>> cluster = new LinkedHashMap<>();
        final Map<PartitionId, OrderRecord> records = new HashMap<>();

        Model(List<List<Integer>> assignments) {
            for (int i = 0; i < assignments.size(); i++) {
                cluster.put(new PartitionId("t", i), List.copyOf(assignments.get(i)));
            }
        }

        ClusterSnapshot snapshot() {
            ClusterSnapshot.Builder b = ClusterSnapshot.builder().activeBrokers(10);
            cluster.forEach((id, replicas) -> {
                int[] r = replicas.stream().mapToInt(Integer::intValue).toArray();
                b.partition(PartitionState.of(id.topic(), id.partition(), r, r, r[0]));
            });
            return b.build();
        }

        ReorderPlan plan(Set<Integer> list) {
            return ReorderPlanner.plan(snapshot(), list, records, Set.of());
        }

        void run(Set<Integer> list, Crash crash) {
            ReorderPlan plan = plan(list);
            plan.restored().forEach(records::remove);
            plan.conflicts().forEach(c -> records.remove(c.partition()));
            plan.confirmations().forEach(r -> records.put(r.partition(), r));
            plan.moves().forEach(m -> records.put(m.partition(), m.writeAhead()));
            if (crash == Crash.AFTER_WRITE_AHEAD) {
                return;
            }
            plan.moves().forEach(m -> cluster.put(m.partition(), m.target()));
            if (crash == Crash.AFTER_REASSIGNMENT) {
                return;
            }
            for (ReorderMove m : plan.moves()) {
                if (m.isRestore()) {
                    records.remove(m.partition());
                } else {
                    records.put(m.partition(), m.writeAhead().withStatus(ReorderStatus.REORDERED));
                }
            }
        }
    }

    @Property(tries = 300)
    void anyListHistoryWithCrashes_thenEmptyList_restoresEveryOriginalOrderExactly(
            @ForAll("assignments") List<List<Integer>> assignments, @ForAll("histories") List<Step> history) {
        Model model = new Model(assignments);
        Map<PartitionId, List<Integer>> initial = new LinkedHashMap<>(model.cluster);

        history.forEach(s -> model.run(s.list(), s.crash()));
        model.run(Set.of(), Crash.NONE);

        assertThat(model.cluster).isEqualTo(initial);
        assertThat(model.records).isEmpty();
    }

    @Property(tries = 300)
    void anyListHistoryWithCrashes_thenOneCleanRun_givesTheEffectiveOrderOfTheOriginal(
            @ForAll("assignments") List<List<Integer>> assignments,
            @ForAll("histories") List<Step> history,
            @ForAll("brokerLists") Set<Integer> finalList) {
        Model model = new Model(assignments);
        Map<PartitionId, List<Integer>> initial = new LinkedHashMap<>(model.cluster);
        EffectiveReplicaOrder order = EffectiveReplicaOrder.of(finalList);

        history.forEach(s -> model.run(s.list(), s.crash()));
        model.run(finalList, Crash.NONE);

        initial.forEach((id, original) -> {
            assertThat(model.cluster.get(id))
                    .as("order of %s", id)
                    .isEqualTo(ReorderPlanner.effectiveOrderOf(id, original, order));
            OrderRecord r = model.records.get(id);
            if (r != null) {
                assertThat(r.original()).as("stored original of %s", id).isEqualTo(original);
                assertThat(r.status()).isEqualTo(ReorderStatus.REORDERED);
            }
        });
        assertThat(model.plan(finalList).isEmpty())
                .as("a second run has nothing to do")
                .isTrue();
    }

    @Property(tries = 200)
    void replicaSetChangedBySomeoneElse_isNeverReassignedInThatRun(
            @ForAll("assignments") List<List<Integer>> assignments, @ForAll("brokerLists") Set<Integer> list) {
        Model model = new Model(assignments);
        model.run(list, Crash.NONE);
        Assume.that(!model.records.isEmpty());
        Map<PartitionId, List<Integer>> changed = new HashMap<>();
        model.records.keySet().forEach(id -> {
            List<Integer> replicas = model.cluster.get(id);
            List<Integer> other = new ArrayList<>(replicas);
            other.set(0, 9); // a broker no partition had: a real reassignment by someone else
            changed.put(id, List.copyOf(other));
        });
        model.cluster.putAll(changed);

        ReorderPlan plan = model.plan(list);

        Set<PartitionId> moved = new HashSet<>();
        plan.moves().forEach(m -> moved.add(m.partition()));
        Set<PartitionId> conflicted = new HashSet<>();
        plan.conflicts().forEach(c -> conflicted.add(c.partition()));
        assertThat(Collections.disjoint(moved, changed.keySet()))
                .as("moved %s", moved)
                .isTrue();
        assertThat(conflicted).isEqualTo(changed.keySet());
    }

    @Provide
    Arbitrary<List<List<Integer>>> assignments() {
        return Arbitraries.integers()
                .between(0, 4)
                .list()
                .uniqueElements()
                .ofMinSize(1)
                .ofMaxSize(3)
                .list()
                .ofMinSize(1)
                .ofMaxSize(8);
    }

    @Provide
    Arbitrary<Set<Integer>> brokerLists() {
        return Arbitraries.integers().between(0, 4).set().ofMaxSize(3);
    }

    @Provide
    Arbitrary<List<Step>> histories() {
        return Combinators.combine(brokerLists(), Arbitraries.of(Crash.class))
                .as(Step::new)
                .list()
                .ofMaxSize(6);
    }
}
