package io.leaderpacer.engine;

import io.leaderpacer.engine.config.ConfigKey;
import io.leaderpacer.engine.config.PacerConfig;

import java.util.LinkedHashMap;
import java.util.Map;

/** Configurations the tests use, spelled with the real keys so they also exercise parsing. */
public final class PacerConfigs {

    private PacerConfigs() {
    }

    /** wait-for-sync with a threshold and a cap; everything else default. */
    public static PacerConfig waitForSync(double thresholdPercent, int maxPerRun) {
        return PacerConfig.fromMap(Map.of(
                ConfigKey.ALGORITHM.key(), "wait-for-sync",
                ConfigKey.THRESHOLD_PERCENT.key(), Double.toString(thresholdPercent),
                ConfigKey.MAX_PER_RUN.key(), Integer.toString(maxPerRun)));
    }

    /** immediate with a cap; everything else default. */
    public static PacerConfig immediate(int maxPerRun) {
        return PacerConfig.fromMap(Map.of(ConfigKey.MAX_PER_RUN.key(), Integer.toString(maxPerRun)));
    }

    /** {@code base} with more keys changed, given as key/value pairs. */
    public static PacerConfig with(PacerConfig base, ConfigKey key, String value, Object... more) {
        Map<String, String> updates = new LinkedHashMap<>();
        updates.put(key.key(), value);
        for (int i = 0; i + 1 < more.length; i += 2) {
            updates.put(((ConfigKey) more[i]).key(), String.valueOf(more[i + 1]));
        }
        return base.withUpdates(updates);
    }
}
