package io.leaderpacer.cli.demo;

import io.leaderpacer.engine.GatePhase;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class TimelineAxisTest {

    private static TimelineSample s(long atMs, int leaders, int gained) {
        return new TimelineSample(atMs, true, 0, 100, GatePhase.OPEN, leaders, gained, gained, 1.0, 10);
    }

    private static RecoveryRun run(long restartAtMs, TimelineSample... samples) {
        return new RecoveryRun("p", "", 1, restartAtMs, List.of(samples), 1.0, 10);
    }

    @Test
    void runsWithDifferentRestartTimes_areAlignedOnTheRestart() {
        RecoveryRun early = run(1_000, s(1_000, 0, 0), s(2_000, 10, 0));
        RecoveryRun late = run(3_000, s(3_000, 0, 0), s(4_000, 20, 0));

        TimelineAxis axis = TimelineAxis.covering(List.of(early, late));

        assertThat(axis.restartSeconds()).isEqualTo(3.0);
        double[] x = axis.seconds();
        assertThat(x[0]).isZero();
        assertThat(x[x.length - 1]).isEqualTo(4.0);
        // Both runs reach their second sample one second after their restart: at 4.0 s on the axis.
        double[] a = axis.hold(early, TimelineSample::leaders);
        double[] b = axis.hold(late, TimelineSample::leaders);
        assertThat(a[index(x, 3.5)]).isEqualTo(0.0);
        assertThat(a[index(x, 4.0)]).isEqualTo(10.0);
        assertThat(b[index(x, 4.0)]).isEqualTo(20.0);
    }

    @Test
    void hold_isNaNBeforeTheFirstSampleAndAfterTheLast() {
        RecoveryRun shortRun = run(0, s(1_000, 5, 0), s(2_000, 6, 0));
        RecoveryRun longRun = run(0, s(0, 0, 0), s(6_000, 9, 0));

        TimelineAxis axis = TimelineAxis.covering(List.of(shortRun, longRun));
        double[] x = axis.seconds();
        double[] held = axis.hold(shortRun, TimelineSample::leaders);

        assertThat(held[index(x, 0.5)]).isNaN();
        assertThat(held[index(x, 1.5)]).isEqualTo(5.0);
        assertThat(held[index(x, 2.5)]).isEqualTo(6.0);
        assertThat(held[index(x, 3.0)]).isNaN();
    }

    @Test
    void sumPerStep_putsEachRunsElectionsInOneStep() {
        RecoveryRun r = run(0, s(0, 0, 0), s(1_200, 0, 20), s(1_400, 20, 5), s(3_000, 25, 0));

        TimelineAxis axis = TimelineAxis.covering(List.of(r));
        double[] x = axis.seconds();
        double[] sums = axis.sumPerStep(r, TimelineSample::electionsToRestarted);

        assertThat(sums[index(x, 1.0)]).isZero();
        assertThat(sums[index(x, 1.5)]).isEqualTo(25.0);
        assertThat(sums[index(x, 2.0)]).isZero();
        double total = 0;
        for (double v : sums) {
            total += Double.isNaN(v) ? 0 : v;
        }
        assertThat(total).isEqualTo(25.0);
    }

    private static int index(double[] x, double value) {
        for (int i = 0; i < x.length; i++) {
            if (Math.abs(x[i] - value) < 1e-9) {
                return i;
            }
        }
        throw new AssertionError("no axis point at " + value);
    }
}
