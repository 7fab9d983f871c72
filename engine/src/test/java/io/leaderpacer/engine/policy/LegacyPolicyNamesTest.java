package io.leaderpacer.engine.policy;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class LegacyPolicyNamesTest {

    @Test
    void currentNames_haveNoReplacement() {
        for (String name : PolicyRegistry.names()) {
            assertThat(LegacyPolicyNames.replacement(name)).as(name).isEmpty();
        }
        assertThat(LegacyPolicyNames.replacement(PolicyRegistry.LOAD_TEST_SCALED_EXAMPLE))
                .isEmpty();
    }

    @Test
    void retiredWaitForSync_namesBothPoliciesItMeant() {
        assertThat(LegacyPolicyNames.replacement("wait-for-sync"))
                .hasValue("'wait-for-sync' is retired as a policy"
                        + " name: it meant two policies; the simulator's is now kip-example, the load test's and the demo's"
                        + " kip-example-scaled");
    }
}
