package io.leaderpacer.loadtest;

import org.junit.jupiter.api.Test;

import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;

/** Hand-worked: the window always covers the return of leadership, and is never shorter than set. */
class WindowEndTest {

    private static final long WINDOW_MS = 90_000;
    private static final long UNFENCED_AT = 10_000;

    @Test
    void brokerNotYetRecovered_windowStaysOpen() {
        assertThat(WindowMeasurement.windowEndMs(WINDOW_MS, UNFENCED_AT, OptionalLong.empty())).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void recoveredEarly_windowKeepsItsSetLength() {
        // Recovered 40 s after unfencing: 40 + 30 s of tail is inside the 90 s window.
        assertThat(WindowMeasurement.windowEndMs(WINDOW_MS, UNFENCED_AT, OptionalLong.of(50_000))).isEqualTo(90_000);
    }

    @Test
    void recoveredAfterTheWindow_windowRunsToTheTailAfterTheRelease() {
        // A paced catch-up: leadership back 250 s after unfencing, so the window closes 30 s later, at 280 s.
        assertThat(WindowMeasurement.windowEndMs(WINDOW_MS, UNFENCED_AT, OptionalLong.of(260_000)))
                .isEqualTo(250_000 + WindowMeasurement.RELEASE_TAIL_MS);
    }
}
