package io.leaderpacer.agent.chaos;

import io.leaderpacer.agent.chaos.FailoverChecks.ElectingRun;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Hand-made timelines that keep or break each {@link FailoverChecks} invariant (cap 3, throttle interval 2500 ms). */
class FailoverChecksTest {

    private final FailoverChecks checks = new FailoverChecks(3, 2_500);

    @Test
    void handoverAfterTheThrottleInterval_passesAndIsCounted() {
        assertThat(checks.afterRun(new ElectingRun("a", 1, 0, 100, 3, true))).isEqualTo(1);
        assertThat(checks.afterRun(new ElectingRun("a", 2, 2_600, 2_700, 3, true)))
                .isEqualTo(2);
        // b's first electing run starts exactly throttle interval after a's last capped run ended.
        assertThat(checks.afterRun(new ElectingRun("b", 1, 5_200, 5_300, 2, false)))
                .isEqualTo(4);
        assertThat(checks.handovers()).isEqualTo(1);
        assertThat(checks.electingRuns()).isEqualTo(3);
    }

    @Test
    void runsOfTwoInstancesOverlapping_areTwoActiveInstances() {
        checks.afterRun(new ElectingRun("a", 7, 1_000, 2_000, 1, false));
        assertThatThrownBy(() -> checks.afterRun(new ElectingRun("b", 1, 1_999, 3_000, 1, false)))
                .isInstanceOf(AgentInvariantViolation.class)
                .hasMessage(
                        "run 1: two instances elected at the same time: instance b run 1 [1999, 3000] ms, 1 election(s)"
                                + " overlaps instance a run 7 [1000, 2000] ms, 1 election(s)");
    }

    @Test
    void successorElectingBeforeThePredecessorsThrottleInterval_breaksThePacing() {
        checks.afterRun(new ElectingRun("a", 4, 0, 1_000, 3, true));
        assertThatThrownBy(() -> checks.afterRun(new ElectingRun("b", 1, 3_000, 3_100, 1, false)))
                .isInstanceOf(AgentInvariantViolation.class)
                .hasMessageContaining("the first electing run of instance b after instance a started 2000 ms after the"
                        + " predecessor's last capped run ended, less than the throttle interval of 2500 ms");
    }

    @Test
    void successorAfterAnUncappedRun_needsNoThrottleGap() {
        checks.afterRun(new ElectingRun("a", 4, 0, 1_000, 2, false));
        assertThat(checks.afterRun(new ElectingRun("b", 1, 1_001, 1_100, 1, false)))
                .isEqualTo(3);
    }

    @Test
    void batchOverTheCap_isRefusedWhicheverInstanceSentIt() {
        assertThatThrownBy(() -> checks.afterRun(new ElectingRun("c", 9, 0, 10, 4, true)))
                .isInstanceOf(AgentInvariantViolation.class)
                .hasMessage("run 9: instance c sent 4 elections in one batch, more than the cap of 3");
    }

    @Test
    void sameInstanceRunsBackToBack_areNotAHandover() {
        checks.afterRun(new ElectingRun("a", 1, 0, 100, 3, true));
        checks.afterRun(new ElectingRun("a", 2, 100, 200, 3, true));
        assertThat(checks.handovers()).isZero();
    }
}
