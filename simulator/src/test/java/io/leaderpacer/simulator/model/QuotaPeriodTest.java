package io.leaderpacer.simulator.model;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * A catch-up response under a CPU quota's CFS period, worked by hand: a response the quota's rate takes T ms for runs
 * T x q ms at one core's speed, meets a period's end with probability run / (q x P) and then waits P x (1 - q).
 */
class QuotaPeriodTest {

    @Test
    void halfACoreOver100msPeriods_aFifthOfA20msResponseIsStopped_for50ms() {
        QuotaPeriod q = new QuotaPeriod(0.5, 100);
        assertThat(q.runMs(20)).isCloseTo(10, within(1e-9));
        assertThat(q.stoppedShare(20)).isCloseTo(0.2, within(1e-9));
        assertThat(q.stopMs(20)).isCloseTo(50, within(1e-9));
    }

    @Test
    void threeQuartersOfACore_aFifthOfA20msResponseIsStopped_for25ms() {
        QuotaPeriod q = new QuotaPeriod(0.75, 100);
        assertThat(q.runMs(20)).isCloseTo(15, within(1e-9));
        assertThat(q.stoppedShare(20)).isCloseTo(0.2, within(1e-9));
        assertThat(q.stopMs(20)).isCloseTo(25, within(1e-9));
    }

    @Test
    void aResponseLongerThanAPeriodsBudget_isAlwaysStopped_andWaitsAsTheRate() {
        QuotaPeriod q = new QuotaPeriod(0.5, 100);
        // 200 ms of CPU spans four 50-ms budgets: every such response is stopped, on average for 200 ms in all.
        assertThat(q.stoppedShare(400)).isEqualTo(1);
        assertThat(q.runMs(400) + q.stopMs(400)).isCloseTo(400, within(1e-9));
    }

    @Test
    void aCoreOrMore_orNoPeriod_stopsNothing() {
        for (QuotaPeriod q : new QuotaPeriod[] {
            new QuotaPeriod(1, 100), new QuotaPeriod(2, 100), new QuotaPeriod(0.5, 0), QuotaPeriod.NONE
        }) {
            assertThat(q.stops()).as("%s", q).isFalse();
            assertThat(q.runMs(20)).as("%s", q).isEqualTo(20);
            assertThat(q.stoppedShare(20)).as("%s", q).isZero();
            assertThat(q.stopMs(20)).as("%s", q).isZero();
        }
    }

    @Property(tries = 500)
    void anyQuotaAndResponse_keepsTheMeanWait_andAShareBetweenZeroAndOne(
            @ForAll @DoubleRange(min = 0.01, max = 4) double cores,
            @ForAll @DoubleRange(min = 1, max = 1000) double periodMs,
            @ForAll @DoubleRange(min = 0.01, max = 10_000) double responseMs) {
        QuotaPeriod q = new QuotaPeriod(cores, periodMs);
        double share = q.stoppedShare(responseMs);
        assertThat(share).isBetween(0.0, 1.0);
        assertThat(q.runMs(responseMs) + share * q.stopMs(responseMs)).isCloseTo(responseMs, within(1e-9 * responseMs));
        assertThat(q.stopMs(responseMs)).isGreaterThanOrEqualTo(0);
    }
}
