package io.leaderpacer.engine.policy;

import io.leaderpacer.engine.config.ConfigKey;
import io.leaderpacer.engine.config.PacerConfig;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/** Every production preset is recognised as itself, whatever the keys a preset does not decide hold. */
class PresetMatchProperties {

    @Provide
    Arbitrary<PolicyEntry> presets() {
        return Arbitraries.of(PolicyRegistry.productionPresets());
    }

    @Property
    void everyPreset_withAnyCheckIntervalAndDeprioritizedList_isThatPreset(
            @ForAll("presets") PolicyEntry preset,
            @ForAll @LongRange(min = 1, max = 86_400) long checkIntervalSeconds,
            @ForAll @Size(max = 4) List<@IntRange(min = 0, max = 1000) Integer> deprioritized) {
        Map<String, String> keys = new HashMap<>(preset.settingsByKey(0));
        keys.put(ConfigKey.CHECK_INTERVAL_SECONDS.key(), Long.toString(checkIntervalSeconds));
        keys.put(
                ConfigKey.DEPRIORITIZED_LIST.key(),
                deprioritized.stream().map(String::valueOf).collect(Collectors.joining(",")));

        PresetMatch m = PresetMatch.of(PacerConfig.fromMap(keys));

        assertThat(m.exact()).as(m.describe()).isTrue();
        assertThat(m.nearest()).isSameAs(preset);
    }

    @Property
    void theNearestPreset_differsInNoMoreKeysThanAnyOther(
            @ForAll("presets") PolicyEntry preset, @ForAll @IntRange(min = 1, max = 100_000) int maxPerRun) {
        Map<String, String> keys = new HashMap<>(preset.settingsByKey(0));
        keys.put(ConfigKey.MAX_PER_RUN.key(), Integer.toString(maxPerRun));
        PacerConfig inForce = PacerConfig.fromMap(keys);

        PresetMatch m = PresetMatch.of(inForce);

        assertThat(m.differing()).hasSizeLessThanOrEqualTo(1);
        for (PolicyEntry other : PolicyRegistry.productionPresets()) {
            long differing = PolicyRegistry.presetKeys().stream()
                    .filter(k -> !inForce.valueOf(k)
                            .equals(PresetMatch.configOf(other).valueOf(k)))
                    .count();
            assertThat(m.differing().size()).as(other.name()).isLessThanOrEqualTo((int) differing);
        }
    }
}
