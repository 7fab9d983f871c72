package io.leaderpacer.report.loadtest;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class LegacyLoadTestLabelsTest {

    @Test
    void recordedLoadTestWaitForSync_isTheScaledExample_withItsOverridesKept() {
        assertThat(LegacyLoadTestLabels.todaysName("wait-for-sync")).isEqualTo("kip-example-scaled");
        assertThat(LegacyLoadTestLabels.todaysName("wait-for-sync:leader.imbalance.election.max.per.run=15"))
                .isEqualTo("kip-example-scaled:leader.imbalance.election.max.per.run=15");
    }

    @Test
    void otherLabels_areUnchanged() {
        assertThat(LegacyLoadTestLabels.todaysName("immediate")).isEqualTo("immediate");
        assertThat(LegacyLoadTestLabels.todaysName("kip-example-scaled")).isEqualTo("kip-example-scaled");
        assertThat(LegacyLoadTestLabels.todaysName("wait-for-sync-literal")).isEqualTo("wait-for-sync-literal");
    }
}
