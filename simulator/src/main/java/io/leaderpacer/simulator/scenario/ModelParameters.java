package io.leaderpacer.simulator.scenario;

import io.leaderpacer.report.MeasurementWindow;

import java.util.Arrays;
import java.util.EnumMap;
import java.util.Map;

/**
 * The physics of one simulated cluster: every {@link ModelKey} with its value, defaults unless
 * the scenario overrides them.
 *
 * <p>Kept as a dense array behind named getters so that the per-tick hot loop reads a field, not a
 * map, and so that a scenario can only ever set keys that exist and are in range.
 */
public final class ModelParameters {

    private static final ModelParameters DEFAULTS = new ModelParameters(new EnumMap<>(ModelKey.class));

    /** Value per key, indexed by ordinal. */
    private final double[] values;

    private ModelParameters(Map<ModelKey, Double> overrides) {
        values = new double[ModelKey.values().length];
        for (ModelKey k : ModelKey.values()) {
            Double v = overrides.get(k);
            double value = v == null ? k.defaultValue() : v;
            if (!(value >= k.min() && value <= k.max())) {
                throw new IllegalArgumentException(
                        "model." + k.key() + " = " + value + " is outside [" + k.min() + ", " + k.max() + "]");
            }
            values[k.ordinal()] = value;
        }
    }

    public static ModelParameters defaults() {
        return DEFAULTS;
    }

    /** A copy with some keys changed; throws {@link IllegalArgumentException} naming a value out of range. */
    public ModelParameters with(Map<ModelKey, Double> overrides) {
        Map<ModelKey, Double> all = new EnumMap<>(ModelKey.class);
        for (ModelKey k : ModelKey.values()) {
            all.put(k, values[k.ordinal()]);
        }
        all.putAll(overrides);
        return new ModelParameters(all);
    }

    public double get(ModelKey key) {
        return values[key.ordinal()];
    }

    public double networkInBytesPerSecond() {
        return get(ModelKey.NETWORK_IN_MBPS) * 1e6;
    }

    public double diskBytesPerSecond() {
        return get(ModelKey.DISK_WRITE_MBPS) * 1e6;
    }

    public double requestCapacity() {
        return get(ModelKey.REQUESTS_PER_SECOND);
    }

    public long tickMs() {
        return (long) get(ModelKey.TICK_MS);
    }

    public long bucketMs() {
        return (long) (get(ModelKey.BUCKET_SECONDS) * 1000);
    }

    public long recoveryWindowMs() {
        return (long) (get(ModelKey.RECOVERY_WINDOW_SECONDS) * 1000);
    }

    /** The window P99 is measured over, the load test's rule ({@link MeasurementWindow}). */
    public MeasurementWindow measurementWindow() {
        return new MeasurementWindow(recoveryWindowMs(), (long) (get(ModelKey.RECOVERY_WINDOW_TAIL_SECONDS) * 1000));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ModelParameters m && Arrays.equals(values, m.values);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(values);
    }
}
