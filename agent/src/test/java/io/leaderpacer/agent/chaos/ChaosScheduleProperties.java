package io.leaderpacer.agent.chaos;

import io.leaderpacer.engine.EffectiveReplicaOrder;
import io.leaderpacer.engine.cluster.PartitionState;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

import java.util.Arrays;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Invariants of every chaos plan, whatever the seed, and of the suffix rule the state-topic check relies on.
 */
class ChaosScheduleProperties {

    @Property(tries = 200)
    void everyPlan_staysWithinItsBounds(
            @ForAll long seed,
            @ForAll @IntRange(min = 0, max = 40) int count,
            @ForAll @IntRange(min = 3, max = 6) int brokers) {
        ChaosSchedule plan = ChaosSchedule.plan(seed, count, brokers);

        assertThat(plan).isEqualTo(ChaosSchedule.plan(seed, count, brokers));
        assertThat(plan.faults()).hasSize(count);
        Set<Integer> list = Set.of();
        for (ChaosFault f : plan.faults()) {
            assertThat(f.pauseAfterMs()).isBetween(ChaosSchedule.MIN_PAUSE_MS, ChaosSchedule.MAX_PAUSE_MS);
            if (f instanceof ChaosFault.Restart r) {
                assertThat(r.broker()).isBetween(0, brokers - 1);
                if (r.abrupt()) {
                    assertThat(r.downMs())
                            .as("a crashed broker stays down past the 3 s session time-out")
                            .isBetween(ChaosSchedule.MIN_CRASH_DOWN_MS, ChaosSchedule.MAX_CRASH_DOWN_MS);
                } else {
                    assertThat(r.downMs()).isBetween(ChaosSchedule.MIN_DOWN_MS, ChaosSchedule.MAX_DOWN_MS);
                }
                if (r.slowFollower()) {
                    assertThat(r.slowFollowerMs()).isBetween(ChaosSchedule.MIN_SLOW_MS, ChaosSchedule.MAX_SLOW_MS);
                }
            } else if (f instanceof ChaosFault.ListChange c) {
                assertThat(c.deprioritized())
                        .as("the list changes")
                        .isNotEqualTo(list)
                        .as("two brokers stay outside the list")
                        .hasSizeLessThanOrEqualTo(brokers - 2)
                        .allSatisfy(b -> assertThat(b).isBetween(0, brokers - 1));
                list = c.deprioritized();
            }
        }
        assertThat(plan.restarts() + plan.listChanges()).isEqualTo(count);
    }

    @Property(tries = 300)
    void engineEffectiveOrder_isAlwaysTheOriginalWithASuffixMoved(
            @ForAll("replicaLists") List<Integer> replicas, @ForAll("brokerSets") Set<Integer> deprioritized) {
        int[] array = replicas.stream().mapToInt(Integer::intValue).toArray();
        int[] order = EffectiveReplicaOrder.of(deprioritized).order(PartitionState.of("t", 0, array, new int[0], -1));

        assertThat(InvariantChecks.isOriginalWithSuffixMoved(
                        replicas, Arrays.stream(order).boxed().toList()))
                .isTrue();
    }

    @Provide
    Arbitrary<List<Integer>> replicaLists() {
        return Arbitraries.integers()
                .between(0, 7)
                .list()
                .uniqueElements()
                .ofMinSize(1)
                .ofMaxSize(5);
    }

    @Provide
    Arbitrary<Set<Integer>> brokerSets() {
        return Arbitraries.integers().between(0, 7).set().ofMaxSize(4);
    }
}
