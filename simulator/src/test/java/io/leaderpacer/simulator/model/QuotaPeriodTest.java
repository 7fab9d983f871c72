package io.leaderpacer.simulator.model;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * A broker under a CPU quota's CFS period, worked by hand: each core-second of bursts stands it 1/q - 1 seconds, and a
 * write that needs it then waits half a stop of P x (1 - q).
 */
class QuotaPeriodTest {

    @Test
    void halfACoreOver100msPeriods_aTenthOfACoreOfBursts_standsItATenthOfTheTime_25msAWrite() {
        QuotaPeriod q = new QuotaPeriod(0.5, 100);
        assertThat(q.standingShare(0.1)).isCloseTo(0.1, within(1e-12));
        assertThat(q.standingWaitMs()).isCloseTo(25, within(1e-12));
    }

    @Test
    void threeQuartersOfACore_theSameBursts_standItAThirtiethOfTheTime_12point5msAWrite() {
        QuotaPeriod q = new QuotaPeriod(0.75, 100);
        assertThat(q.standingShare(0.1)).isCloseTo(0.1 / 3, within(1e-12));
        assertThat(q.standingWaitMs()).isCloseTo(12.5, within(1e-12));
    }

    @Test
    void burstsThatFillTheQuota_standItTheRestOfEachPeriod() {
        QuotaPeriod q = new QuotaPeriod(0.5, 100);
        assertThat(q.standingShare(0.5)).isCloseTo(0.5, within(1e-12));
        assertThat(q.standingShare(3)).as("more bursts than the quota runs").isCloseTo(0.5, within(1e-12));
    }

    @Test
    void aCoreOrMore_orNoPeriod_orNoBursts_standsNever() {
        for (QuotaPeriod q : new QuotaPeriod[] {
            new QuotaPeriod(1, 100), new QuotaPeriod(2, 100), new QuotaPeriod(0.5, 0), new QuotaPeriod(Double.NaN, 100)
        }) {
            assertThat(q.stops()).as("%s", q).isFalse();
            assertThat(q.standingShare(0.3)).as("%s", q).isZero();
            assertThat(q.standingWaitMs()).as("%s", q).isZero();
        }
        assertThat(new QuotaPeriod(0.5, 100).standingShare(0)).isZero();
    }

    @Property(tries = 500)
    void anyQuotaAndBursts_standsBetweenNoneAndTheRestOfThePeriod_moreWithMoreBursts(
            @ForAll @DoubleRange(min = 0.01, max = 4) double cores,
            @ForAll @DoubleRange(min = 1, max = 1000) double periodMs,
            @ForAll @DoubleRange(min = 0, max = 4) double bursts) {
        QuotaPeriod q = new QuotaPeriod(cores, periodMs);
        double share = q.standingShare(bursts);
        assertThat(share).isBetween(0.0, Math.max(0, 1 - cores));
        assertThat(q.standingShare(bursts + 0.01)).isGreaterThanOrEqualTo(share);
        assertThat(q.standingWaitMs()).isBetween(0.0, periodMs / 2);
    }
}
