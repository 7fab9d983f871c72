package io.leaderpacer.engine.policy;

import io.leaderpacer.engine.config.ConfigKey;
import io.leaderpacer.engine.config.PacerConfig;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Which production preset the keys in force are, or, when they are none, the nearest preset and the keys that
 * differ from it.
 *
 * <p>Why: an operator turns a preset on with {@code pacer config --preset NAME}, and the policy an agent then runs is
 * that preset overlaid by whatever else is set: an agent's properties file, a key changed later with
 * {@code pacer config --alter}. {@code pacer status} and {@code pacer plan} print {@link #describe()} so that one line
 * says whether what runs is still the preset the evidence measured, and if not, which keys made it something else.
 *
 * <p>A preset is its keys plus Kafka's default for every other key it decides ({@link PolicyRegistry#presetKeys()});
 * the check interval and the deprioritized list are not compared. Keys are compared in their canonical form
 * ({@link PacerConfig#valueOf}), so {@code 5} and {@code 5.0} are the same threshold. The nearest preset is the one
 * with the fewest differing keys, the first in the registry's order on a tie.
 *
 * @param nearest   the preset matched, or the nearest one
 * @param differing the keys whose value in force is not the preset's, in {@link ConfigKey} order; empty for a match
 */
public record PresetMatch(PolicyEntry nearest, List<ConfigKey> differing) {

    public PresetMatch {
        Objects.requireNonNull(nearest, "nearest");
        differing = List.copyOf(differing);
    }

    /** The preset the configuration in force matches, or the nearest one. */
    public static PresetMatch of(PacerConfig inForce) {
        Objects.requireNonNull(inForce, "inForce");
        PresetMatch best = null;
        for (PolicyEntry preset : PolicyRegistry.productionPresets()) {
            PresetMatch m = new PresetMatch(preset, differing(inForce, configOf(preset)));
            if (best == null || m.differing().size() < best.differing().size()) {
                best = m;
            }
        }
        return Objects.requireNonNull(best, "the registry has no production preset");
    }

    /** The whole configuration a preset stands for: its keys over Kafka's defaults. */
    public static PacerConfig configOf(PolicyEntry preset) {
        return PacerConfig.fromMap(preset.settingsByKey(0));
    }

    private static List<ConfigKey> differing(PacerConfig inForce, PacerConfig preset) {
        List<ConfigKey> out = new ArrayList<>();
        for (ConfigKey k : PolicyRegistry.presetKeys()) {
            if (!inForce.valueOf(k).equals(preset.valueOf(k))) {
                out.add(k);
            }
        }
        return out;
    }

    /** Whether the keys in force are exactly {@link #nearest()}. */
    public boolean exact() {
        return differing.isEmpty();
    }

    /**
     * One line for an operator: {@code Keys in force: preset recommended-paced}, or {@code Keys in force match no
     * preset (differs from recommended-paced in: KEY, KEY)}.
     */
    public String describe() {
        if (exact()) {
            return "Keys in force: preset " + nearest.name();
        }
        return "Keys in force match no preset (differs from " + nearest.name() + " in: "
                + String.join(", ", differing.stream().map(ConfigKey::key).toList()) + ")";
    }
}
