package io.leaderpacer.simulator.run;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Scenario 2, KIP-1358's load test: KIP-1358's acceptance criteria, on the leadership part alone (what a policy
 * controls) and with the in-sync follower's wait behind catch-up fetches (what the real load test measured).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LoadTestScenarioTest {

    private ScenarioResult result;
    private ScenarioResult withSharing;

    @BeforeAll
    void run() {
        result = ShippedScenarios.leadershipOnly("02-load-test.yaml", 4, "kip-example", "throttle-only");
        withSharing = ShippedScenarios.run("02-load-test.yaml", 4, "kip-example");
    }

    @Test
    void withFetcherSharing_waitForSyncFailsP99LikeTheBaseline_asTheRealLoadTestMeasured() {
        KipAcceptance baseline = withSharing.acceptance(withSharing.baseline());
        KipAcceptance wfs = withSharing.acceptance("kip-example");
        assertThat(wfs.p99Ok()).isFalse();
        assertThat(baseline.p99Ok()).isFalse();
        // The follower's wait is the same whoever leads: the two spikes are within 25 % of each other.
        assertThat(wfs.p99Ratio() / baseline.p99Ratio()).isBetween(0.75, 1.25);
        // And it is far above what leadership alone does under wait-for-sync.
        assertThat(wfs.p99Ratio())
                .isGreaterThan(3 * result.acceptance("kip-example").p99Ratio());
    }

    @Test
    void baseline_showsKip1358sSpikeOfThreeToTenTimesSteadyState() {
        PolicyOutcome baseline = result.baseline();
        assertThat(baseline.kip().p99Ratio()).isBetween(3.0, 10.0);
        assertThat(result.acceptance(baseline).p99Ok()).isFalse();
        assertThat(baseline.controller().maxElectionsInRun()).isGreaterThan(200);
    }

    @Test
    void waitForSync_keepsP99WithinOneAndAHalfAndRecoveryWithinTwiceBaseline() {
        KipAcceptance v = result.acceptance("kip-example");
        assertThat(v.p99Ratio()).isLessThanOrEqualTo(1.5);
        assertThat(v.recoveryRatio()).isGreaterThan(1.0).isLessThanOrEqualTo(2.0);
        assertThat(v.pass()).isTrue();
        assertThat(result.outcome("kip-example").controller().maxElectionsInRun())
                .isEqualTo(200);
    }

    @Test
    void throttleAlone_doesNotProtectProducers() {
        assertThat(result.acceptance("throttle-only").p99Ratio()).isGreaterThan(3.0);
    }

    @Test
    void everyRun_wasCheckedAndRecovered() {
        for (PolicyOutcome o : result.outcomes()) {
            assertThat(o.end().invariantChecks())
                    .as(o.policy().name())
                    .isGreaterThan(o.controller().runs());
            assertThat(o.kip().recovered()).as(o.policy().name()).isTrue();
            assertThat(o.kip().timeoutCount()).as(o.policy().name()).isZero();
        }
    }
}
