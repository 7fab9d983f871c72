package io.leaderpacer.engine.policy;

import io.leaderpacer.engine.config.ConfigKey;
import io.leaderpacer.engine.config.ElectionAlgorithm;
import io.leaderpacer.engine.config.PacerConfig;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PolicyRegistryTest {

    private static final Path RECOVERY_SPEED = Path.of("..", "docs", "CONFIGURATION.md");

    @Test
    void everyPolicy_isAValidConfiguration_atAnySize() {
        for (PolicyEntry e : PolicyRegistry.all()) {
            for (int preferred : new int[] {0, 1, 117, 5000, 1_000_000}) {
                assertThat(PacerConfig.fromMap(e.settingsByKey(preferred)))
                        .as(e.name())
                        .isNotNull();
            }
        }
    }

    @Test
    void differentNames_haveDifferentSettings() {
        List<Map<ConfigKey, String>> seen = PolicyRegistry.all().stream()
                .filter(e -> !e.modelOnly())
                .map(e -> e.settings(5000))
                .toList();
        assertThat(new HashSet<>(seen)).hasSameSizeAs(seen);
    }

    @Test
    void immediate_isKafkasDefaults() {
        assertThat(PolicyRegistry.named("immediate").settings(100)).isEmpty();
        assertThat(PacerConfig.fromMap(PolicyRegistry.named("immediate").settingsByKey(100))
                        .algorithm())
                .isEqualTo(ElectionAlgorithm.IMMEDIATE);
    }

    @Test
    void kipExample_isTheWorkedExample_200Per15s_maxWait30min() {
        PacerConfig c = PacerConfig.fromMap(PolicyRegistry.named("kip-example").settingsByKey(0));
        assertThat(c.waitForSync()).isTrue();
        assertThat(c.thresholdPercent()).isEqualTo(5.0);
        assertThat(c.maxPerRun()).isEqualTo(200);
        assertThat(c.throttleIntervalMs()).isEqualTo(15_000);
        assertThat(c.valueOf(ConfigKey.MAX_WAIT_MS)).isEqualTo("1800000");
    }

    @Test
    void theLoadTestsSizedPolicies_areNotTheEngines_butTheirNamesAreKnownAsLoadTestOnly() {
        assertThat(PolicyRegistry.all()).noneMatch(PolicyEntry::sizedByPreferredPartitions);
        assertThat(PolicyRegistry.find("kip-example-scaled")).isEmpty();
        assertThat(PolicyRegistry.loadTestOnly("kip-example-scaled")).hasValue("kip-example");
        assertThat(PolicyRegistry.loadTestOnly("kip-example")).isEmpty();
    }

    @Test
    void recommended_isTheRecommendedConfigurationOfTheRecoverySpeedDoc() throws IOException {
        assertThat(PolicyRegistry.named("recommended").settingsByKey(0))
                .isEqualTo(documentedBlock("## Recommended configuration"));
    }

    @Test
    void recommendedPaced_isRecommended_withAdaptivePacing_aFastRelease_andTenPartitionsASecond_atAnySize() {
        PolicyEntry paced = PolicyRegistry.named("recommended-paced");
        assertThat(paced.sizedByPreferredPartitions()).isFalse();
        assertThat(paced.productionPreset()).isTrue();
        PacerConfig c = PacerConfig.fromMap(paced.settingsByKey(102));
        assertThat(c.waitForSync()).isTrue();
        assertThat(c.thresholdPercent()).isEqualTo(5.0);
        assertThat(c.valueOf(ConfigKey.MAX_WAIT_MS)).isEqualTo("1800000");
        assertThat(c.valueOf(ConfigKey.CATCH_UP_PACING)).isEqualTo("adaptive");
        assertThat(c.valueOf(ConfigKey.RECHECK_INTERVAL_MS)).isEqualTo("5000");
        assertThat(c.valueOf(ConfigKey.HYSTERESIS_MIN_MS)).isEqualTo("0");
        assertThat(c.throttleIntervalMs()).isEqualTo(1000);
        assertThat(c.maxPerRun()).isEqualTo(10);
        assertThat(PolicyRegistry.PACED_MAX_PER_RUN).isEqualTo(10);
        assertThat(PacerConfig.fromMap(paced.settingsByKey(5000)).maxPerRun()).isEqualTo(10);
        assertThat(PacerConfig.fromMap(paced.settingsByKey(0)).maxPerRun()).isEqualTo(10);
        assertThat(paced.description())
                .contains("10 partitions a run, 1 s apart")
                .doesNotContain("ceil");
    }

    @Test
    void recommendedPaced_isTheProducersFirstConfigurationOfTheRecoverySpeedDoc() throws IOException {
        assertThat(PolicyRegistry.named("recommended-paced").settingsByKey(100))
                .isEqualTo(documentedBlock("## Producers first: the catch-up paced"));
    }

    /** The properties of the first code block after {@code heading} in docs/CONFIGURATION.md. */
    private static Map<String, String> documentedBlock(String heading) throws IOException {
        String doc = Files.readString(RECOVERY_SPEED);
        assertThat(doc).contains(heading);
        String section = doc.substring(doc.indexOf(heading));
        int open = section.indexOf("```\n") + 4;
        Properties p = new Properties();
        p.load(new StringReader(section.substring(open, section.indexOf("```", open))));
        Map<String, String> documented = new HashMap<>();
        p.stringPropertyNames().forEach(k -> documented.put(k, p.getProperty(k)));
        return documented;
    }

    @Test
    void unknownName_listsTheKnownOnes() {
        assertThatThrownBy(() -> PolicyRegistry.named("fastest"))
                .isInstanceOf(UnknownPolicyException.class)
                .hasMessageContaining("unknown policy 'fastest'")
                .hasMessageContaining("immediate, kip-example, recommended");
        assertThat(PolicyRegistry.unknown("x", List.of("mine", "immediate")).known())
                .endsWith("replication-throttle", "mine")
                .containsOnlyOnce("immediate");
    }

    @Test
    void retiredName_isUnknown_andSaysWhichNamesReplacedIt() {
        assertThatThrownBy(() -> PolicyRegistry.named("wait-for-sync"))
                .hasMessageContaining("unknown policy 'wait-for-sync'")
                .hasMessageContaining(
                        "the simulator's is now kip-example, the load test's and the demo's kip-example-scaled");
        assertThatThrownBy(() -> PolicyRegistry.named("baseline")).hasMessageContaining("'baseline' is now immediate");
        assertThatThrownBy(() -> PolicyRegistry.named("wait-for-sync-literal"))
                .hasMessageContaining("now kip-example-literal");
    }

    @Test
    void productionPresets_areTheFixedPoliciesTheAgentCanRun_inListingOrder() {
        assertThat(PolicyRegistry.productionPresets())
                .extracting(PolicyEntry::name)
                .containsExactly(
                        "immediate",
                        "kip-example",
                        "recommended",
                        "recommended-paced",
                        "recommended-deadline",
                        "kip-example-literal",
                        "kip-example-wall-clock",
                        "kip-example-strict",
                        "kip-example-strict-no-escape",
                        "throttle-only");
    }

    @Test
    void productionPreset_byName_isTheRegistrysEntry() {
        assertThat(PolicyRegistry.productionPreset("recommended-paced"))
                .isSameAs(PolicyRegistry.named("recommended-paced"));
    }

    @Test
    void productionPreset_sizedForALoadTest_isRefused_sayingWhy_andNamingThePresetToUseInstead() {
        assertThatThrownBy(() -> PolicyRegistry.productionPreset("kip-example-scaled"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(
                        "'kip-example-scaled' is sized for a load test of minutes, not for a production" + " cluster")
                .hasMessageContaining("its per-run cap depends on the partition count of the broker that recovers")
                .hasMessageEndingWith("use the production preset kip-example instead");
    }

    @Test
    void productionPreset_modelOnly_isRefused_sayingTheSimulatorAloneHasIt() {
        assertThatThrownBy(() -> PolicyRegistry.productionPreset("replication-throttle"))
                .hasMessageStartingWith("'replication-throttle' is modelled by the simulator alone")
                .hasMessageContaining("recommended-paced");
    }

    @Test
    void productionPreset_unknownName_listsTheProductionPresetsOnly() {
        assertThatThrownBy(() -> PolicyRegistry.productionPreset("fastest"))
                .hasMessage("unknown preset 'fastest'; the production presets are immediate, kip-example, recommended,"
                        + " recommended-paced, recommended-deadline, kip-example-literal, kip-example-wall-clock,"
                        + " kip-example-strict,"
                        + " kip-example-strict-no-escape, throttle-only");
        assertThatThrownBy(() -> PolicyRegistry.productionPreset("baseline"))
                .hasMessageEndingWith("('baseline' is now immediate)");
    }

    @Test
    void presetKeys_areEveryKey_butTheCheckIntervalAndTheDeprioritizedList() {
        assertThat(PolicyRegistry.presetKeys())
                .hasSize(ConfigKey.values().length - 2)
                .doesNotContain(ConfigKey.CHECK_INTERVAL_SECONDS, ConfigKey.DEPRIORITIZED_LIST);
        for (PolicyEntry e : PolicyRegistry.productionPresets()) {
            assertThat(PolicyRegistry.presetKeys())
                    .as(e.name())
                    .containsAll(e.settings(0).keySet());
        }
    }

    @Test
    void onlyTheReplicationThrottle_isModelOnly() {
        assertThat(PolicyRegistry.all())
                .filteredOn(PolicyEntry::modelOnly)
                .extracting(PolicyEntry::name)
                .containsExactly("replication-throttle");
    }
}
