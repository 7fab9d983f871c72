package io.leaderpacer.agent.chaos;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The chaos plan: a pure function of its seed, with the golden figures of the seed the chaos test runs by default
 * (the documented figures depend on it, so a change of the drawing shows up here first).
 */
class ChaosScheduleTest {

    private static final long DEFAULT_SEED = 491_1358L;

    @Test
    void sameSeed_givesAnEqualPlan() {
        assertThat(ChaosSchedule.plan(42, 25, 4)).isEqualTo(ChaosSchedule.plan(42, 25, 4));
        assertThat(ChaosSchedule.plan(42, 25, 4).describe())
                .isEqualTo(ChaosSchedule.plan(42, 25, 4).describe());
    }

    @Test
    void otherSeed_givesAnotherPlan() {
        assertThat(ChaosSchedule.plan(42, 10, 4).faults())
                .isNotEqualTo(ChaosSchedule.plan(43, 10, 4).faults());
    }

    @Test
    void longerPlan_startsWithTheShorterPlanOfTheSameSeed() {
        // chaos.faults makes a run longer without changing the steps a shorter run of the same seed did
        assertThat(ChaosSchedule.plan(7, 30, 4).faults().subList(0, 10))
                .isEqualTo(ChaosSchedule.plan(7, 10, 4).faults());
    }

    @Test
    void defaultSeed_goldenPlan() {
        ChaosSchedule plan = ChaosSchedule.plan(DEFAULT_SEED, 10, 4);

        assertThat(plan.restarts()).isEqualTo(8);
        assertThat(plan.crashes()).isEqualTo(1);
        assertThat(plan.slowFollowerEpisodes()).isEqualTo(6);
        assertThat(plan.listChanges()).isEqualTo(2);
        assertThat(plan.slowFollowerEpisodesOutsideList())
                .as("broker 2 is deprioritized for its slow restart in step 7")
                .isEqualTo(5);
        assertThat(plan.faults().get(0)).isEqualTo(new ChaosFault.Restart(0, false, 3085, 4485, 2505));
        assertThat(plan.faults().get(1)).isEqualTo(ChaosFault.ListChange.of(Set.of(2), 2561));
        assertThat(plan.describe())
                .startsWith("chaos plan for seed 4911358 (10 steps on 4 brokers):\n"
                        + "   1. restart broker 0, down 3085 ms, then a slow follower for 4485 ms; pause 2505 ms\n"
                        + "   2. deprioritized list := [2]; pause 2561 ms\n");
    }

    @Test
    void emptyPlan_hasNoSteps() {
        assertThat(ChaosSchedule.plan(1, 0, 3).faults()).isEmpty();
    }

    @Test
    void badArguments_areRefusedWithTheValue() {
        assertThatThrownBy(() -> ChaosSchedule.plan(1, -1, 4))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("fault count must be >= 0, was -1");
        assertThatThrownBy(() -> ChaosSchedule.plan(1, 5, 2))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a chaos plan needs at least 3 brokers, was 2");
    }

    @Test
    void listChange_configValue_isTheCommaSeparatedList() {
        assertThat(ChaosFault.ListChange.of(Set.of(3, 1), 0).configValue()).isEqualTo("1,3");
        assertThat(ChaosFault.ListChange.of(Set.of(), 0).configValue()).isEmpty();
        assertThat(new ChaosFault.ListChange(new TreeSet<>(List.of(2)), 5).describe())
                .isEqualTo("deprioritized list := [2]; pause 5 ms");
    }

    @Test
    void planWithAgentFaults_keepsTheClusterStepsOfTheSameSeed_andHasEachAgentFaultAsked() {
        ChaosSchedule plan = ChaosSchedule.planWithAgentFaults(DEFAULT_SEED, 5, 4, 2, 2);
        assertThat(plan.faults()).hasSize(9);
        assertThat(plan.agentStops()).isEqualTo(2);
        assertThat(plan.agentCrashes()).isEqualTo(2);
        assertThat(plan.faults().stream()
                        .filter(f -> !(f instanceof ChaosFault.AgentStop))
                        .toList())
                .isEqualTo(ChaosSchedule.plan(DEFAULT_SEED, 5, 4).faults());
        assertThat(plan).isEqualTo(ChaosSchedule.planWithAgentFaults(DEFAULT_SEED, 5, 4, 2, 2));
        assertThat(ChaosSchedule.plan(DEFAULT_SEED, 5, 4).agentStops()).isZero();
    }

    @Test
    void negativeAgentFaults_areRefused() {
        assertThatThrownBy(() -> ChaosSchedule.planWithAgentFaults(1, 3, 4, -1, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("agent stops and crashes must be >= 0, were -1 and 0");
    }
}
