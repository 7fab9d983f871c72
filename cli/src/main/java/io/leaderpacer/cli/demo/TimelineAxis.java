package io.leaderpacer.cli.demo;

import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * One time axis for several recorded recoveries, so that their charts overlay: fixed steps, with
 * every run shifted so that the broker restarts at the same point of the axis, and each run's
 * samples resampled onto it.
 *
 * <p>Why resample: agent runs happen at different instants under each policy (the throttle
 * interval spaces one, the check interval the other), while a chart has one x array for all its
 * lines. Why align on the restart: the time the broker spends down varies a little from run to
 * run (it is as long as writing the backlog takes), and what the policies differ in is what
 * happens after it comes back.
 */
final class TimelineAxis {

    /** Spacing of the axis: finer than any agent run interval, so no run is merged with another. */
    static final double STEP_SECONDS = 0.5;

    /** Axis points in seconds, ascending from 0. */
    private final double[] seconds;
    /** Where the broker restarts on the axis, in ms: the latest restart of all runs. */
    private final long restartOnAxisMs;

    private TimelineAxis(double[] seconds, long restartOnAxisMs) {
        this.seconds = seconds;
        this.restartOnAxisMs = restartOnAxisMs;
    }

    /** An axis from 0 to the last sample of any run, once shifted (at least one point). */
    static TimelineAxis covering(List<RecoveryRun> runs) {
        long restart = 0;
        for (RecoveryRun r : runs) {
            restart = Math.max(restart, r.restartAtMs());
        }
        double end = 0;
        for (RecoveryRun r : runs) {
            long shift = restart - r.restartAtMs();
            for (TimelineSample s : r.timeline()) {
                end = Math.max(end, (s.atMs() + shift) / 1000.0);
            }
        }
        int n = (int) Math.ceil(end / STEP_SECONDS) + 1;
        double[] x = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = i * STEP_SECONDS;
        }
        return new TimelineAxis(x, restart);
    }

    double[] seconds() {
        return seconds.clone();
    }

    /** Where the broker restarts on this axis, in seconds. */
    double restartSeconds() {
        return restartOnAxisMs / 1000.0;
    }

    /**
     * The value of the latest sample at or before each axis point; NaN before a run's first sample
     * and after its last, so that a run that ended early shows a gap instead of a flat line.
     */
    double[] hold(RecoveryRun run, ToDoubleFunction<TimelineSample> value) {
        List<TimelineSample> samples = run.timeline();
        double[] out = new double[seconds.length];
        double last = samples.isEmpty() ? Double.NEGATIVE_INFINITY : onAxis(run, samples.get(samples.size() - 1));
        int next = 0;
        TimelineSample current = null;
        for (int i = 0; i < seconds.length; i++) {
            while (next < samples.size() && onAxis(run, samples.get(next)) <= seconds[i]) {
                current = samples.get(next++);
            }
            boolean ended = seconds[i] > last + STEP_SECONDS;
            out[i] = current == null || ended ? Double.NaN : value.applyAsDouble(current);
        }
        return out;
    }

    /**
     * The sum over the samples falling in each step {@code (x - step, x]} (the first point also
     * takes anything before it); 0 for a step without samples, NaN after the run's last sample.
     */
    double[] sumPerStep(RecoveryRun run, ToDoubleFunction<TimelineSample> value) {
        List<TimelineSample> samples = run.timeline();
        double[] out = new double[seconds.length];
        double last = samples.isEmpty() ? Double.NEGATIVE_INFINITY : onAxis(run, samples.get(samples.size() - 1));
        int next = 0;
        for (int i = 0; i < seconds.length; i++) {
            double sum = 0;
            while (next < samples.size() && onAxis(run, samples.get(next)) <= seconds[i]) {
                sum += value.applyAsDouble(samples.get(next++));
            }
            out[i] = seconds[i] > last + STEP_SECONDS ? Double.NaN : sum;
        }
        return out;
    }

    /** A sample's position on the axis, in seconds. */
    private double onAxis(RecoveryRun run, TimelineSample s) {
        return (s.atMs() + restartOnAxisMs - run.restartAtMs()) / 1000.0;
    }
}
