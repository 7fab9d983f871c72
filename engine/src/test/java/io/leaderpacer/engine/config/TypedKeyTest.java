package io.leaderpacer.engine.config;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The key facility the key enums share: the lookup by name, the names, the spec read through the interface, the
 * check that refuses a value with the key's allowed values, and the lookup of an enum setting's word.
 */
class TypedKeyTest {

    /** A key enum of its own, so that the facility is shown to work for any enum, not just the policy's keys. */
    private enum Shade implements TypedKey {
        LIGHT(new KeySpec("shade.light", "10", "a number >= 0", "How light.")),
        DARK(new KeySpec("shade.dark", "0", "a number >= 0", "How dark."));

        private final KeySpec spec;

        Shade(KeySpec spec) {
            this.spec = spec;
        }

        @Override
        public KeySpec spec() {
            return spec;
        }
    }

    @Test
    void forName_knownName_isThatConstant() {
        assertThat(NamedKey.forName(Shade.class, "shade.dark")).contains(Shade.DARK);
        assertThat(NamedKey.forName(ConfigKey.class, "leader.imbalance.election.algorithm"))
                .contains(ConfigKey.ALGORITHM);
    }

    @Test
    void forName_unknownName_isEmpty() {
        assertThat(NamedKey.forName(Shade.class, "shade.grey")).isEmpty();
        assertThat(NamedKey.forName(Shade.class, "DARK")).isEmpty();
        assertThat(NamedKey.forName(Shade.class, null)).isEmpty();
    }

    @Test
    void configKeyForName_unknownName_isStillNull() {
        assertThat(ConfigKey.forName("no.such.key")).isNull();
        assertThat(ConfigKey.forName(null)).isNull();
    }

    @Test
    void names_areInDeclarationOrder() {
        assertThat(NamedKey.names(Shade.class)).containsExactly("shade.light", "shade.dark");
        assertThat(ConfigKey.names())
                .isEqualTo(NamedKey.names(ConfigKey.class))
                .startsWith("leader.imbalance.check.interval.seconds");
    }

    @Test
    void everyKeyEnum_namesAreUnique() {
        assertThat(NamedKey.names(Shade.class)).doesNotHaveDuplicates();
        assertThat(NamedKey.names(ConfigKey.class)).doesNotHaveDuplicates();
        for (ConfigKey k : ConfigKey.values()) {
            assertThat(NamedKey.forName(ConfigKey.class, k.key())).contains(k);
        }
    }

    @Test
    void typedKey_readsEveryFieldFromItsSpec() {
        assertThat(ConfigKey.ALGORITHM.spec())
                .isEqualTo(new KeySpec(
                        "leader.imbalance.election.algorithm",
                        "immediate",
                        "one of: immediate, wait-for-sync",
                        ConfigKey.ALGORITHM.doc()));
        assertThat(Shade.LIGHT.key()).isEqualTo("shade.light");
        assertThat(Shade.LIGHT.defaultValue()).isEqualTo("10");
        assertThat(Shade.LIGHT.allowed()).isEqualTo("a number >= 0");
        assertThat(Shade.LIGHT.doc()).isEqualTo("How light.");
    }

    @Test
    void keySpec_missingField_isRefused() {
        assertThatThrownBy(() -> new KeySpec("k", null, "any", "doc"))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("defaultValue");
    }

    @Test
    void require_passingValue_throwsNothing() {
        assertThatCode(() -> KeyCheck.require(true, ConfigKey.MAX_WAIT_MS, "-1"))
                .doesNotThrowAnyException();
    }

    @Test
    void require_failingValue_throwsConfigExceptionNamingKeyValueAndAllowed() {
        assertThatThrownBy(() -> KeyCheck.require(false, ConfigKey.MAX_WAIT_MS, "-1"))
                .isInstanceOfSatisfying(ConfigException.class, e -> {
                    assertThat(e.key()).isEqualTo("leader.imbalance.election.wait.for.sync.max.wait.ms");
                    assertThat(e.value()).isEqualTo("-1");
                })
                .hasMessage("Invalid value '-1' for configuration"
                        + " 'leader.imbalance.election.wait.for.sync.max.wait.ms':"
                        + " must be a whole number of milliseconds >= 0 (0 = never escape)");
    }

    @Test
    void require_withFactory_throwsWhatTheFactoryMakes() {
        assertThatThrownBy(() -> KeyCheck.require(
                        false,
                        Shade.DARK,
                        "-3",
                        (k, v) -> new IllegalStateException(k.key() + "=" + v + ": must be " + k.allowed())))
                .isExactlyInstanceOf(IllegalStateException.class)
                .hasMessage("shade.dark=-3: must be a number >= 0");
    }

    @Test
    void forValue_everyChoice_isFoundByItsConfigValue() {
        for (ElectionAlgorithm a : ElectionAlgorithm.values()) {
            assertThat(ConfigChoice.forValue(ElectionAlgorithm.class, a.configValue()))
                    .contains(a);
        }
        for (GateDenominator d : GateDenominator.values()) {
            assertThat(ConfigChoice.forValue(GateDenominator.class, d.configValue()))
                    .contains(d);
        }
        for (MaxWaitClock c : MaxWaitClock.values()) {
            assertThat(ConfigChoice.forValue(MaxWaitClock.class, c.configValue()))
                    .contains(c);
        }
        for (PacingMode m : PacingMode.values()) {
            assertThat(ConfigChoice.forValue(PacingMode.class, m.configValue())).contains(m);
        }
    }

    @Test
    void forValue_unknownOrDifferentlyCasedWord_isEmpty() {
        assertThat(ConfigChoice.forValue(PacingMode.class, "fast")).isEmpty();
        assertThat(ConfigChoice.forValue(PacingMode.class, "Static")).isEmpty();
        assertThat(ConfigChoice.forValue(PacingMode.class, null)).isEmpty();
    }

    @Test
    void unknownChoice_inAConfiguration_isRefusedWithTheKeysAllowedValues() {
        assertThatThrownBy(() -> PacerConfig.defaults().with("leader.imbalance.catch.up.pacing", "fast"))
                .isInstanceOf(ConfigException.class)
                .hasMessage("Invalid value 'fast' for configuration 'leader.imbalance.catch.up.pacing':"
                        + " must be one of: off, static, adaptive");
    }
}
