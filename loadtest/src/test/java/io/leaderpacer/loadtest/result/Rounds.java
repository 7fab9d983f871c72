package io.leaderpacer.loadtest.result;

import io.leaderpacer.loadtest.load.View;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/** Test fixture: round results with chosen figures (steady P99 10 ms for every view; unfenced at 60 s). */
final class Rounds {

    static final long UNFENCED_AT = 60_000;

    private Rounds() {
    }

    static RoundResult round(String policy, int n, double windowAll, double windowProtected, long timeouts,
                             Long recoveryMs, long lastReentryMs, double busyCores) {
        Map<View, LatencyFigures> steady = new EnumMap<>(View.class);
        Map<View, LatencyFigures> window = new EnumMap<>(View.class);
        for (View v : View.values()) {
            steady.put(v, new LatencyFigures(1000, 2, 10, 20, 30));
            double w = v == View.PROTECTED ? windowProtected : windowAll;
            window.put(v, new LatencyFigures(1000, 2, w, w, w));
        }
        Map<View, Map<String, Long>> errors = new EnumMap<>(View.class);
        errors.put(View.ALL, timeouts == 0 ? Map.of() : Map.of("REQUEST_TIMED_OUT", timeouts));
        Timeline timeline = new Timeline(10, 10, 500, 2000, 4000, lastReentryMs);
        return new RoundResult(policy, n, steady, window, errors, 30_000, 50_000, UNFENCED_AT, 90_000, 200_000,
                recoveryMs == null ? OptionalLong.empty() : OptionalLong.of(UNFENCED_AT + recoveryMs), OptionalLong.empty(),
                timeline, List.of(), new RoundResult.SaturationFigures("cgroup v1 cpu.cfs_quota_us", 0.25, true,
                        OptionalDouble.of(busyCores), OptionalDouble.of(0.05), OptionalDouble.of(0.06)), List.of(), List.of(), List.of(), List.of());
    }
}
