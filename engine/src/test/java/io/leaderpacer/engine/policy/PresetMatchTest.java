package io.leaderpacer.engine.policy;

import io.leaderpacer.engine.config.ConfigKey;
import io.leaderpacer.engine.config.PacerConfig;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class PresetMatchTest {

    private static PacerConfig preset(String name, Map<String, String> changes) {
        Map<String, String> keys = new HashMap<>(PolicyRegistry.named(name).settingsByKey(0));
        keys.putAll(changes);
        return PacerConfig.fromMap(keys);
    }

    @Test
    void kafkasDefaults_areImmediate() {
        PresetMatch m = PresetMatch.of(PacerConfig.defaults());

        assertThat(m.exact()).isTrue();
        assertThat(m.nearest().name()).isEqualTo("immediate");
        assertThat(m.describe()).isEqualTo("Keys in force: preset immediate");
    }

    @Test
    void recommendedPacedsKeys_areRecommendedPaced() {
        PresetMatch m = PresetMatch.of(preset("recommended-paced", Map.of()));

        assertThat(m.describe()).isEqualTo("Keys in force: preset recommended-paced");
    }

    @Test
    void recommendedPaced_withTwoKeysChanged_matchesNoPreset_namingItAndTheKeys() {
        PacerConfig tuned = preset(
                "recommended-paced",
                Map.of(
                        ConfigKey.MAX_PER_RUN.key(), "20",
                        ConfigKey.CATCH_UP_RATE_BYTES.key(), "10485760"));

        PresetMatch m = PresetMatch.of(tuned);

        assertThat(m.exact()).isFalse();
        assertThat(m.nearest().name()).isEqualTo("recommended-paced");
        assertThat(m.differing()).containsExactly(ConfigKey.MAX_PER_RUN, ConfigKey.CATCH_UP_RATE_BYTES);
        assertThat(m.describe())
                .isEqualTo("Keys in force match no preset (differs from recommended-paced in:"
                        + " leader.imbalance.election.max.per.run, leader.imbalance.catch.up.pacing.rate.bytes)");
    }

    @Test
    void theLoadTestsFormerSizedCap_isNoPreset_oneKeyFromRecommendedPaced() {
        // recommended-paced was ceil(P / 10) per run: 11 for the load test's broker preferred for 102 partitions.
        PresetMatch m = PresetMatch.of(preset("recommended-paced", Map.of(ConfigKey.MAX_PER_RUN.key(), "11")));

        assertThat(m.describe())
                .isEqualTo("Keys in force match no preset (differs from recommended-paced in:"
                        + " leader.imbalance.election.max.per.run)");
    }

    @Test
    void waitForSyncAlone_isNearestToImmediate_oneKeyAway() {
        // immediate: only the algorithm differs; kip-example: threshold, max.per.run and throttle interval.
        PresetMatch m = PresetMatch.of(PacerConfig.fromMap(Map.of(ConfigKey.ALGORITHM.key(), "wait-for-sync")));

        assertThat(m.nearest().name()).isEqualTo("immediate");
        assertThat(m.differing()).containsExactly(ConfigKey.ALGORITHM);
    }

    @Test
    void checkIntervalAndDeprioritizedList_areNotPartOfAPreset() {
        PacerConfig c = preset(
                "kip-example",
                Map.of(
                        ConfigKey.CHECK_INTERVAL_SECONDS.key(), "5",
                        ConfigKey.DEPRIORITIZED_LIST.key(), "1,2"));

        assertThat(PresetMatch.of(c).describe()).isEqualTo("Keys in force: preset kip-example");
    }

    @Test
    void valuesAreComparedInCanonicalForm() {
        PacerConfig c = preset("kip-example", Map.of(ConfigKey.THRESHOLD_PERCENT.key(), "5.0"));

        assertThat(PresetMatch.of(c).describe()).isEqualTo("Keys in force: preset kip-example");
    }

    @Test
    void aKeyFromAnotherPreset_canMakeItThatPreset() {
        // kip-example with threshold 0 is exactly kip-example-strict, not "kip-example, one key off".
        PresetMatch m = PresetMatch.of(preset("kip-example", Map.of(ConfigKey.THRESHOLD_PERCENT.key(), "0")));

        assertThat(m.describe()).isEqualTo("Keys in force: preset kip-example-strict");
    }
}
