package io.leaderpacer.report.policy;

import io.leaderpacer.engine.config.ConfigKey;
import io.leaderpacer.engine.config.PacerConfig;
import io.leaderpacer.engine.policy.LegacyPolicyNames;
import io.leaderpacer.engine.policy.PolicyEntry;
import io.leaderpacer.engine.policy.PolicyRegistry;
import io.leaderpacer.engine.policy.UnknownPolicyException;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The load test's registry: the engine's policies, plus the ones sized to a run, listed where they always were. */
class LoadTestPoliciesTest {

    @Test
    void everyPolicy_isAValidConfiguration_atAnySize() {
        for (PolicyEntry e : LoadTestPolicies.all()) {
            for (int preferred : new int[] {0, 1, 117, 5000, 1_000_000}) {
                assertThat(PacerConfig.fromMap(e.settingsByKey(preferred)))
                        .as(e.name())
                        .isNotNull();
            }
        }
    }

    @Test
    void differentNames_haveDifferentSettings() {
        List<Map<ConfigKey, String>> seen = LoadTestPolicies.all().stream()
                .filter(e -> !e.modelOnly())
                .map(e -> e.settings(5000))
                .toList();
        assertThat(new HashSet<>(seen)).hasSameSizeAs(seen);
    }

    @Test
    void kipExampleScaled_returnsThePreferredPartitionsInAbout25Batches_2sApart_maxWait5min() {
        PolicyEntry scaled = LoadTestPolicies.named("kip-example-scaled");
        assertThat(scaled.sizedByPreferredPartitions()).isTrue();
        PacerConfig c = PacerConfig.fromMap(scaled.settingsByKey(117));
        assertThat(c.waitForSync()).isTrue();
        assertThat(c.thresholdPercent()).isEqualTo(5.0);
        assertThat(c.maxPerRun()).isEqualTo(5);
        assertThat(c.throttleIntervalMs()).isEqualTo(2000);
        assertThat(c.valueOf(ConfigKey.MAX_WAIT_MS)).isEqualTo("300000");
        assertThat(LoadTestPolicies.scaledCap(5000)).isEqualTo(200);
        assertThat(LoadTestPolicies.scaledCap(0)).isEqualTo(1);
    }

    @Test
    void theListing_isTheEnginesPolicies_withTheScaledExampleAfterTheExampleItScales() {
        assertThat(LoadTestPolicies.names())
                .containsExactly(
                        "immediate",
                        "kip-example",
                        "kip-example-scaled",
                        "recommended",
                        "recommended-paced",
                        "recommended-deadline",
                        "kip-example-literal",
                        "kip-example-wall-clock",
                        "kip-example-strict",
                        "kip-example-strict-no-escape",
                        "throttle-only",
                        "replication-throttle");
        for (PolicyEntry e : PolicyRegistry.all()) {
            assertThat(LoadTestPolicies.named(e.name())).as(e.name()).isSameAs(e);
        }
    }

    @Test
    void theSizedPolicies_areNotProductionPresets_andTheEngineRefusesThemNamingTheSamePresetInstead() {
        for (PolicyEntry e : LoadTestPolicies.all()) {
            if (e.sizedByPreferredPartitions()) {
                assertThat(e.productionPreset()).as(e.name()).isFalse();
                assertThat(PolicyRegistry.find(e.name())).as(e.name()).isEmpty();
                assertThat(e.productionInstead()).as(e.name()).isEqualTo(PolicyRegistry.loadTestOnly(e.name()));
                assertThatThrownBy(() -> PolicyRegistry.productionPreset(e.name()))
                        .as(e.name())
                        .hasMessageEndingWith("use the production preset "
                                + e.productionInstead().orElseThrow() + " instead");
            }
        }
        assertThat(LoadTestPolicies.named("kip-example-scaled").productionInstead())
                .hasValue("kip-example");
    }

    @Test
    void unknownName_listsTheKnownOnes() {
        assertThatThrownBy(() -> LoadTestPolicies.named("fastest"))
                .isInstanceOf(UnknownPolicyException.class)
                .hasMessageContaining("unknown policy 'fastest'")
                .hasMessageContaining("immediate, kip-example, kip-example-scaled, recommended");
        assertThat(LoadTestPolicies.unknown("x", List.of("mine", "immediate")).known())
                .endsWith("replication-throttle", "mine")
                .containsOnlyOnce("immediate");
    }

    @Test
    void retiredName_isUnknown_andSaysWhichNamesReplacedIt() {
        assertThatThrownBy(() -> LoadTestPolicies.named("wait-for-sync"))
                .hasMessageContaining("unknown policy 'wait-for-sync'")
                .hasMessageContaining(
                        "the simulator's is now kip-example, the load test's and the demo's" + " kip-example-scaled");
        assertThatThrownBy(() -> LoadTestPolicies.named("baseline"))
                .hasMessageContaining("'baseline' is now immediate");
    }

    @Test
    void currentNames_haveNoReplacement() {
        for (String name : LoadTestPolicies.names()) {
            assertThat(LegacyPolicyNames.replacement(name)).as(name).isEmpty();
        }
    }
}
