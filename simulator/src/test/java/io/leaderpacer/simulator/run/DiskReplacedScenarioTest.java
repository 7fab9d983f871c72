package io.leaderpacer.simulator.run;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Scenario 1, KIP-1358's worked example: a replaced broker copying its whole log. */
class DiskReplacedScenarioTest {

    @Test
    void replacedBroker_baselineSpikes_waitForSyncHoldsItBackUntilCaughtUp() {
        ScenarioResult r = ShippedScenarios.leadershipOnly("01-disk-replaced.yaml", 4, "kip-example");
        assertThat(r.baseline().kip().p99Ratio()).isGreaterThan(3.0);
        KipAcceptance wfs = r.acceptance("kip-example");
        assertThat(wfs.p99Ratio()).isLessThanOrEqualTo(1.5);
        assertThat(wfs.recoveryRatio()).isLessThanOrEqualTo(2.0);

        // While it is gated the broker leads nothing, however many of its partitions are back in sync.
        TimeSeries ts = r.outcome("kip-example").series();
        int gatedRows = 0;
        for (int i = 0; i < ts.rows(); i++) {
            if (ts.value("gate_b0", i) == 1) {
                gatedRows++;
                assertThat(ts.value("leaders_b0", i)).isZero();
            }
        }
        assertThat(gatedRows).isGreaterThan(60);
    }
}
