package io.leaderpacer.agent;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StartupBackoffTest {

    @Test
    void delays_doubleFromInitialAndStopAtMax() {
        StartupBackoff b = new StartupBackoff(Duration.ofSeconds(1), Duration.ofSeconds(10));
        assertThat(new long[] {b.delayMs(1), b.delayMs(2), b.delayMs(3), b.delayMs(4), b.delayMs(5), b.delayMs(40)})
                .containsExactly(1000, 2000, 4000, 8000, 10_000, 10_000);
    }

    @Test
    void maxBelowInitial_isRejected() {
        assertThatThrownBy(() -> new StartupBackoff(Duration.ofSeconds(5), Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("initial <= max");
    }
}
