package io.leaderpacer.loadtest.result;

import io.leaderpacer.loadtest.load.LatencyFigures;
import io.leaderpacer.loadtest.load.SecondSample;
import io.leaderpacer.loadtest.load.View;
import io.leaderpacer.loadtest.steady.SteadyWindow;
import org.HdrHistogram.Histogram;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * Test fixture: round results with chosen figures (by default a steady P99 of 10 ms for every view, in four steady
 * windows of 10 ms; unfenced at 60 s).
 */
final class Rounds {

    static final long UNFENCED_AT = 60_000;

    private Rounds() {}

    /** Latency figures without the steady phase's sends and without KIP-1358's window. */
    static RoundResult.Latency latency(
            Map<View, LatencyFigures> steady,
            Map<View, LatencyFigures> window,
            List<SteadyWindow> steadyWindows,
            Map<View, Map<String, Long>> errors,
            List<SecondSample> seconds,
            List<RoundResult.LatencyBucket> buckets) {
        return new RoundResult.Latency(
                steady, window, steadyWindows, errors, seconds, buckets, new Histogram(3), Map.of());
    }

    static RoundResult round(
            String policy,
            int n,
            double windowAll,
            double windowProtected,
            long timeouts,
            Long recoveryMs,
            long lastReentryMs,
            double busyCores) {
        return round(
                policy,
                n,
                windowAll,
                windowProtected,
                timeouts,
                recoveryMs,
                lastReentryMs,
                busyCores,
                10,
                List.of(10.0, 10.0, 10.0, 10.0));
    }

    /** The same round with these window P99s for some views (the restarted broker's roles, say). */
    static RoundResult withRoleP99(RoundResult r, Map<View, Double> p99s) {
        Map<View, LatencyFigures> window = new EnumMap<>(r.latency().window());
        p99s.forEach((v, p) -> window.put(v, new LatencyFigures(1000, 2, p, p, p)));
        RoundResult.Latency l = r.latency();
        RoundResult.Latency latency =
                latency(l.steady(), window, l.steadyWindows(), l.errors(), l.seconds(), l.buckets());
        return new RoundResult(r.policy(), r.round(), latency, r.moments(), r.recovery(), r.saturation(), r.trace());
    }

    /**
     * A round whose steady phase had this P99 over the whole phase ({@code steadyP99}, every view) and these window
     * P99s (every view).
     */
    static RoundResult round(
            String policy,
            int n,
            double windowAll,
            double windowProtected,
            long timeouts,
            Long recoveryMs,
            long lastReentryMs,
            double busyCores,
            double steadyP99,
            List<Double> steadyWindowP99s) {
        Map<View, LatencyFigures> steady = new EnumMap<>(View.class);
        Map<View, LatencyFigures> window = new EnumMap<>(View.class);
        List<SteadyWindow> windows = new ArrayList<>();
        for (View v : View.values()) {
            steady.put(v, new LatencyFigures(1000, 2, steadyP99, steadyP99, steadyP99));
            double w = v == View.PROTECTED ? windowProtected : windowAll;
            window.put(v, new LatencyFigures(1000, 2, w, w, w));
            for (int i = 0; i < steadyWindowP99s.size(); i++) {
                windows.add(new SteadyWindow(v, i, 250, steadyWindowP99s.get(i)));
            }
        }
        Map<View, Map<String, Long>> errors = new EnumMap<>(View.class);
        errors.put(View.ALL, timeouts == 0 ? Map.of() : Map.of("REQUEST_TIMED_OUT", timeouts));
        Timeline timeline = new Timeline(10, 10, 500, 2000, 4000, lastReentryMs);
        RoundResult.Latency latency = latency(steady, window, windows, errors, List.of(), List.of());
        RoundResult.Moments moments = new RoundResult.Moments(30_000, 50_000, UNFENCED_AT, 90_000, 200_000);
        RoundResult.Recovery recovery = new RoundResult.Recovery(
                recoveryMs == null ? OptionalLong.empty() : OptionalLong.of(UNFENCED_AT + recoveryMs),
                OptionalLong.empty(),
                timeline);
        RoundResult.SaturationFigures saturation = new RoundResult.SaturationFigures(
                "cgroup v1 cpu.cfs_quota_us",
                0.25,
                true,
                OptionalDouble.of(busyCores),
                OptionalDouble.of(0.05),
                OptionalDouble.of(0.06));
        RoundResult.Trace trace = new RoundResult.Trace(List.of(), List.of(), List.of(), List.of());
        return new RoundResult(policy, n, latency, moments, recovery, saturation, trace);
    }
}
