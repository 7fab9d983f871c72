package io.leaderpacer.engine;

import io.leaderpacer.engine.config.ConfigKey;
import io.leaderpacer.engine.config.PacerConfig;

import java.util.Map;

/** Configurations the tests use, spelled with the real keys so they also exercise parsing. */
public final class PacerConfigs {

    private PacerConfigs() {}

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

    /** {@code base} with one key changed. */
    public static PacerConfig with(PacerConfig base, ConfigKey key, String value) {
        return base.with(key.key(), value);
    }
}
