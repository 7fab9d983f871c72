package io.leaderpacer.engine.policy;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class LegacyPolicyNamesTest {

    @Test
    void recordedLoadTestWaitForSync_isTheScaledExample_withItsOverridesKept() {
        assertThat(LegacyPolicyNames.loadTestLabel("wait-for-sync")).isEqualTo("kip-example-scaled");
        assertThat(LegacyPolicyNames.loadTestLabel("wait-for-sync:leader.imbalance.election.max.per.run=15"))
                .isEqualTo("kip-example-scaled:leader.imbalance.election.max.per.run=15");
    }

    @Test
    void otherLabels_areUnchanged() {
        assertThat(LegacyPolicyNames.loadTestLabel("immediate")).isEqualTo("immediate");
        assertThat(LegacyPolicyNames.loadTestLabel("kip-example-scaled")).isEqualTo("kip-example-scaled");
        assertThat(LegacyPolicyNames.loadTestLabel("wait-for-sync-literal")).isEqualTo("wait-for-sync-literal");
    }

    @Test
    void currentNames_haveNoReplacement() {
        for (String name : PolicyRegistry.names()) {
            assertThat(LegacyPolicyNames.replacement(name)).as(name).isEmpty();
        }
    }
}
