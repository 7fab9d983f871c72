package io.leaderpacer.simulator.model;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/**
 * Kafka's SimpleRate (11 samples of 1 s) worked by hand: the rate is the bytes of the kept samples over the time since
 * the oldest one started, at least one window; a sample is emptied 11 s after its last record.
 */
class FollowerQuotaTest {

    @Test
    void oneRecord_isSpreadOverAtLeastOneWindow_thenOverTheTimeSince() {
        FollowerQuota q = new FollowerQuota();
        assertThat(q.rate(0)).isZero();
        q.record(10e6, 0);
        assertThat(q.rate(0)).isCloseTo(10e6, within(1e-6));
        assertThat(q.rate(500)).isCloseTo(10e6, within(1e-6));
        assertThat(q.rate(2000)).isCloseTo(5e6, within(1e-6));
    }

    @Test
    void aRecordAWindowLater_opensASecondSample() {
        FollowerQuota q = new FollowerQuota();
        q.record(10e6, 0);
        q.record(10e6, 2500);
        // 20 MB since 0: 8 MB/s at 2.5 s.
        assertThat(q.rate(2500)).isCloseTo(8e6, within(1e-6));
        // At 11 s the first sample (last record at 0) is emptied and restarted: 10 MB since 2.5 s.
        assertThat(q.rate(11_000)).isCloseTo(10e6 / 8.5, within(1e-6));
        // At 13.5 s the second one too.
        assertThat(q.rate(13_500)).isZero();
    }

    @Test
    void exceeded_onlyAboveTheBound_andHeadroomIsWhatTakesTheRateToIt() {
        FollowerQuota q = new FollowerQuota();
        q.record(10e6, 0);
        q.record(10e6, 2500);
        assertThat(q.exceeded(2500, 8e6)).isFalse();
        assertThat(q.exceeded(2500, 7.9e6)).isTrue();
        // 10 MB/s over the 2.5 s window allows 25 MB; 20 MB are in it.
        assertThat(q.headroom(2500, 10e6)).isCloseTo(5e6, within(1e-6));
        assertThat(q.headroom(2500, 4e6)).isZero();
    }

    @Test
    void aResponsePastTheBound_holdsTheQuotaForItsOwnTime_underKafkasDefaultWindow() {
        FollowerQuota q = new FollowerQuota(11, 1000);
        q.record(5e6, 0);
        // 5 MB against 1 MB/s: the average is over the bound until 5 s have passed (5 MB / 4.999 s > 1 MB/s).
        assertThat(q.exceeded(4999, 1e6)).isTrue();
        assertThat(q.exceeded(5001, 1e6)).isFalse();
    }

    @Test
    void aResponsePastTheBound_holdsTheQuotaAtMostTheWindowsSpan_underAShortWindow() {
        FollowerQuota q = new FollowerQuota(2, 1000);
        q.record(5e6, 0);
        // Two samples of 1 s: the sample is emptied 2 s after its record, whatever it held.
        assertThat(q.exceeded(1999, 1e6)).isTrue();
        assertThat(q.exceeded(2000, 1e6)).isFalse();
        assertThat(q.rate(2000)).isZero();
    }

    @Test
    void aWindowOfNoSample_isRefusedByName() {
        assertThatThrownBy(() -> new FollowerQuota(0, 1000))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("0 of 1000 ms");
    }
}
