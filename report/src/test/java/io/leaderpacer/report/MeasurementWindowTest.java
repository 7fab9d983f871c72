package io.leaderpacer.report;

import org.junit.jupiter.api.Test;

import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Hand-worked: a covering window always covers the return of leadership, and is never shorter than set. */
class MeasurementWindowTest {

    private static final MeasurementWindow COVERING = MeasurementWindow.coveringRelease(90_000);

    @Test
    void brokerNotYetRecovered_coveringWindowStaysOpen() {
        assertThat(COVERING.endMs(OptionalLong.empty())).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void recoveredEarly_coveringWindowKeepsItsSetLength() {
        // Recovered 40 s after unfencing: 40 + 30 s of tail is inside the 90 s window.
        assertThat(COVERING.endMs(OptionalLong.of(40_000))).isEqualTo(90_000);
    }

    @Test
    void recoveredAfterTheWindow_coveringWindowRunsToTheTailAfterTheRelease() {
        // A paced catch-up: leadership back 250 s after unfencing, so the window closes 30 s later, at 280 s.
        assertThat(COVERING.endMs(OptionalLong.of(250_000))).isEqualTo(280_000);
    }

    @Test
    void fixedWindow_closesAtItsLength_whateverTheRecovery() {
        MeasurementWindow fixed = new MeasurementWindow(90_000, 0);

        assertThat(fixed.endMs(OptionalLong.empty())).isEqualTo(90_000);
        assertThat(fixed.endMs(OptionalLong.of(250_000))).isEqualTo(90_000);
    }

    @Test
    void untilRecovery_closesAtRecovery() {
        MeasurementWindow untilRecovery = new MeasurementWindow(0, 0);

        assertThat(untilRecovery.endMs(OptionalLong.empty())).isEqualTo(Long.MAX_VALUE);
        assertThat(untilRecovery.endMs(OptionalLong.of(250_000))).isEqualTo(250_000);
    }

    @Test
    void negativeLength_isRefusedNamingBoth() {
        assertThatThrownBy(() -> new MeasurementWindow(-1, 30_000))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("-1 ms")
                .hasMessageContaining("30000 ms");
    }
}
