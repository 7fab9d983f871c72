package io.leaderpacer.simulator.run;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The restarted broker's mean CPU from its unfencing to its last re-entry, over ticks of 100 ms (worked by hand). */
class CatchUpCpuTest {

    /** Unfenced at 1 s: 0.5 core for its first second (ticks 1.0-1.9 s), 0.2 core after. */
    private static CatchUpCpu recorded() {
        CatchUpCpu cpu = new CatchUpCpu();
        for (long t = 1000; t < 5000; t += 100) {
            cpu.record(t, 1000, t < 2000 ? 0.5 : 0.2);
        }
        return cpu;
    }

    @Test
    void lastReentryWithinTheFirstSecond_meanOfThatSecondsTicks() {
        assertThat(recorded().meanCores(0.9)).isCloseTo(0.5, within(1e-12));
    }

    @Test
    void lastReentryAfterTwoSeconds_tenTicksEachSide() {
        // Ticks 1.0-1.9 s at 0.5 and 2.0-2.9 s at 0.2: (5 + 2) / 20.
        assertThat(recorded().meanCores(1.9)).isCloseTo(0.35, within(1e-12));
    }

    @Test
    void neverUnfencedOrNeverBackInSync_unknown() {
        assertThat(new CatchUpCpu().meanCores(3)).isNaN();
        assertThat(recorded().meanCores(Double.NaN)).isNaN();
    }
}
