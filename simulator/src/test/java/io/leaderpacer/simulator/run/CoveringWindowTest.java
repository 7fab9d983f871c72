package io.leaderpacer.simulator.run;

import io.leaderpacer.report.MeasurementWindow;
import io.leaderpacer.simulator.model.RestartedRole;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.withinPercentage;

/**
 * Hand-worked: the simulator measures over the load test's window. Unfenced at 10 s, window 90 s, recovered at 200 s:
 * a covering window (tail 30 s) holds a send at 225 s and not one at 231 s; a fixed window holds neither.
 */
class CoveringWindowTest {

    private static final long UNFENCED_MS = 10_000;
    private static final long RECOVERED_MS = 200_000;

    @Test
    void coveringWindow_holdsTheSendsUntilTheTailAfterRecovery() {
        SimulationRecorder recorder = recorderWith(MeasurementWindow.coveringRelease(90_000));

        assertThat(recorder.windowP99Ms()).isCloseTo(5_000, withinPercentage(1));
    }

    @Test
    void fixedWindow_endsAtItsLength_beforeTheRelease() {
        SimulationRecorder recorder = recorderWith(new MeasurementWindow(90_000, 0));

        assertThat(recorder.windowP99Ms()).isCloseTo(10, withinPercentage(1));
    }

    /** One send of 10 ms at 50 s, of 5 s at 225 s (the release) and of 60 s at 231 s, each of one request. */
    private static SimulationRecorder recorderWith(MeasurementWindow window) {
        SimulationRecorder r = new SimulationRecorder(0.5, 30_000, 0, window, 10_000, new int[0], 3, false);
        r.startRecoveryWindow(UNFENCED_MS);
        send(r, 50_000, 10);
        r.recovered(RECOVERED_MS);
        send(r, 225_000, 5_000);
        send(r, 231_000, 60_000);
        return r;
    }

    private static void send(SimulationRecorder r, long atMs, double latencyMs) {
        r.beginTick(atMs, null);
        r.recordExact(latencyMs, 1000, 0, true, RestartedRole.values()[0]);
    }
}
