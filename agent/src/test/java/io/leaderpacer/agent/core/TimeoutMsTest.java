package io.leaderpacer.agent.core;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

class TimeoutMsTest {

    @Test
    void aTimeoutInRange_isItsMilliseconds() {
        assertThat(TimeoutMs.of(Duration.ofMillis(1500))).isEqualTo(1500);
        assertThat(TimeoutMs.of(30_000L)).isEqualTo(30_000);
    }

    @Test
    void aTimeoutLongerThanAnIntHolds_isClampedToTheLargest_notWrappedNegative() {
        assertThat(TimeoutMs.of(Duration.ofDays(100))).isEqualTo(Integer.MAX_VALUE);
        assertThat(TimeoutMs.of(Long.MAX_VALUE)).isEqualTo(Integer.MAX_VALUE);
    }

    @Test
    void aZeroOrNegativeTimeout_becomesOneMillisecond() {
        assertThat(TimeoutMs.of(Duration.ZERO)).isEqualTo(1);
        assertThat(TimeoutMs.of(-5)).isEqualTo(1);
    }
}
