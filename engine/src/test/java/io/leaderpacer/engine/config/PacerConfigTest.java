package io.leaderpacer.engine.config;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * The configuration: every key parses and validates; a bad value is refused with an error that
 * names the key, the value and the allowed range, and the previous configuration stays whole.
 */
class PacerConfigTest {

    @Test
    void defaults_areTheDesignTable() {
        PacerConfig d = PacerConfig.defaults();

        assertThat(d.checkIntervalSeconds()).isEqualTo(300);
        assertThat(d.algorithm()).isEqualTo(ElectionAlgorithm.IMMEDIATE);
        assertThat(d.thresholdPercent()).isZero();
        assertThat(d.maxWaitMs()).isEqualTo(1_800_000);
        assertThat(d.maxPerRun()).isEqualTo(1000);
        assertThat(d.throttleIntervalMs()).isZero();
        assertThat(d.deprioritizedBrokers()).isEmpty();
        assertThat(d.gateDenominator()).isEqualTo(GateDenominator.ALL_PREFERRED);
        assertThat(d.maxWaitClock()).isEqualTo(MaxWaitClock.WHILE_ACTIVE);
        assertThat(PacerConfig.fromMap(Map.of())).isEqualTo(d);
    }

    @Test
    void everyKeyDefault_parsesBackToTheDefaults() {
        Map<String, String> all = new LinkedHashMap<>();
        for (ConfigKey k : ConfigKey.values()) {
            all.put(k.key(), k.defaultValue());
        }

        assertThat(PacerConfig.fromMap(all)).isEqualTo(PacerConfig.defaults());
        assertThat(PacerConfig.defaults().toMap()).isEqualTo(all);
    }

    @Test
    void everyKey_parsesAValidNonDefaultValue() {
        Map<String, String> values = new LinkedHashMap<>();
        values.put("leader.imbalance.check.interval.seconds", "60");
        values.put("leader.imbalance.election.algorithm", "wait-for-sync");
        values.put("leader.imbalance.election.wait.for.sync.threshold.percent", "2.5");
        values.put("leader.imbalance.election.wait.for.sync.max.wait.ms", "0");
        values.put("leader.imbalance.election.max.per.run", "200");
        values.put("leader.imbalance.election.throttle.interval.ms", "15000");
        values.put("preferred.leader.deprioritized.list", " 10, 1,65 ");
        values.put("leader.imbalance.election.wait.for.sync.denominator", "imbalanced-only");
        values.put("leader.imbalance.election.wait.for.sync.max.wait.clock", "wall");

        PacerConfig c = PacerConfig.fromMap(values);

        assertThat(c.checkIntervalSeconds()).isEqualTo(60);
        assertThat(c.algorithm()).isEqualTo(ElectionAlgorithm.WAIT_FOR_SYNC);
        assertThat(c.waitForSync()).isTrue();
        assertThat(c.thresholdPercent()).isEqualTo(2.5);
        assertThat(c.maxWaitMs()).isZero();
        assertThat(c.maxPerRun()).isEqualTo(200);
        assertThat(c.throttleIntervalMs()).isEqualTo(15_000);
        assertThat(c.deprioritizedBrokers()).containsExactly(1, 10, 65);
        assertThat(c.isDeprioritized(65)).isTrue();
        assertThat(c.gateDenominator()).isEqualTo(GateDenominator.IMBALANCED_ONLY);
        assertThat(c.maxWaitClock()).isEqualTo(MaxWaitClock.WALL);
        assertThat(c.toMap())
                .containsEntry("preferred.leader.deprioritized.list", "1,10,65")
                .containsEntry("leader.imbalance.election.wait.for.sync.threshold.percent", "2.5");
        assertThat(PacerConfig.fromMap(c.toMap())).as("toMap round-trips").isEqualTo(c);
    }

    @Test
    void boundaryValues_areAccepted() {
        assertThat(PacerConfig.defaults()
                        .with("leader.imbalance.election.wait.for.sync.threshold.percent", "100")
                        .thresholdPercent())
                .isEqualTo(100);
        assertThat(PacerConfig.defaults()
                        .with("leader.imbalance.election.max.per.run", "1")
                        .maxPerRun())
                .isEqualTo(1);
        assertThat(PacerConfig.defaults()
                        .with("leader.imbalance.election.max.per.run", "2147483647")
                        .maxPerRun())
                .isEqualTo(Integer.MAX_VALUE);
        assertThat(PacerConfig.defaults()
                        .with("leader.imbalance.check.interval.seconds", "1")
                        .checkIntervalSeconds())
                .isEqualTo(1);
        assertThat(PacerConfig.defaults()
                        .with("preferred.leader.deprioritized.list", "")
                        .deprioritizedBrokers())
                .isEmpty();
    }

    @ParameterizedTest(name = "{0} = ''{1}''")
    @CsvSource(
            delimiter = '|',
            value = {
                "leader.imbalance.election.wait.for.sync.threshold.percent | 150   | between 0 and 100",
                "leader.imbalance.election.wait.for.sync.threshold.percent | -1    | between 0 and 100",
                "leader.imbalance.election.wait.for.sync.threshold.percent | NaN   | between 0 and 100",
                "leader.imbalance.election.wait.for.sync.threshold.percent | five  | between 0 and 100",
                "leader.imbalance.election.wait.for.sync.threshold.percent | 5d    | between 0 and 100",
                "leader.imbalance.election.max.per.run                     | 0     | between 1 and 2147483647",
                "leader.imbalance.election.max.per.run                     | 2147483648 | between 1 and 2147483647",
                "leader.imbalance.election.max.per.run                     | 1.5   | between 1 and 2147483647",
                "leader.imbalance.election.algorithm                       | fast  | immediate, wait-for-sync",
                "leader.imbalance.election.algorithm                       | IMMEDIATE | immediate, wait-for-sync",
                "preferred.leader.deprioritized.list                       | 1,x   | comma-separated list of broker ids",
                "preferred.leader.deprioritized.list                       | 1,-2  | comma-separated list of broker ids",
                "preferred.leader.deprioritized.list                       | 1,,2  | comma-separated list of broker ids",
                "leader.imbalance.check.interval.seconds                   | 0     | >= 1",
                "leader.imbalance.check.interval.seconds                   | 30s   | >= 1",
                "leader.imbalance.election.wait.for.sync.max.wait.ms       | -1    | >= 0",
                "leader.imbalance.election.throttle.interval.ms            | -15000 | >= 0",
                "leader.imbalance.election.wait.for.sync.denominator       | some  | all-preferred, imbalanced-only",
                "leader.imbalance.election.wait.for.sync.max.wait.clock    | cpu   | while-active, wall",
            })
    void invalidValue_isRefusedNamingKeyValueAndRange_andTheOldValueStays(String key, String value, String range) {
        PacerConfig old = PacerConfig.defaults().with("leader.imbalance.election.max.per.run", "200");
        Map<String, String> before = old.toMap();

        ConfigException e = catchThrowableOfType(ConfigException.class, () -> old.with(key, value));

        assertThat(e).as("refused").isNotNull();
        assertThat(e.key()).isEqualTo(key);
        assertThat(e.value()).isEqualTo(value);
        assertThat(e.getMessage()).contains(key).contains("'" + value + "'").contains(range);
        assertThat(old.toMap()).isEqualTo(before);
    }

    @Test
    void multiKeyUpdateWithOneBadValue_appliesNothing() {
        PacerConfig old = PacerConfig.defaults();
        Map<String, String> updates = new LinkedHashMap<>();
        updates.put("leader.imbalance.election.algorithm", "wait-for-sync");
        updates.put("leader.imbalance.election.max.per.run", "200");
        updates.put("leader.imbalance.election.wait.for.sync.threshold.percent", "150");
        updates.put("leader.imbalance.election.throttle.interval.ms", "15000");

        assertThatThrownBy(() -> old.withUpdates(updates))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("threshold.percent")
                .hasMessageContaining("150");

        assertThat(old).isEqualTo(PacerConfig.defaults());
        assertThat(old.algorithm()).isEqualTo(ElectionAlgorithm.IMMEDIATE);
        assertThat(old.maxPerRun()).isEqualTo(1000);
    }

    @Test
    void unknownKey_isRefusedNamingItAndTheKnownKeys() {
        Map<String, String> updates = new LinkedHashMap<>();
        updates.put("leader.imbalance.election.max.per.run", "200");
        updates.put("leader.imbalance.election.max.per.runs", "200");

        ConfigException e = catchThrowableOfType(
                ConfigException.class, () -> PacerConfig.defaults().withUpdates(updates));

        assertThat(e.key()).isEqualTo("leader.imbalance.election.max.per.runs");
        assertThat(e.getMessage())
                .contains("Unknown configuration 'leader.imbalance.election.max.per.runs'")
                .contains("leader.imbalance.election.max.per.run,");
    }

    @Test
    void nullValue_resetsTheKeyToItsDefault() {
        PacerConfig tuned = PacerConfig.defaults()
                .with("leader.imbalance.election.max.per.run", "200")
                .with("leader.imbalance.election.algorithm", "wait-for-sync");

        PacerConfig reset = tuned.with("leader.imbalance.election.max.per.run", null);

        assertThat(reset.maxPerRun()).isEqualTo(1000);
        assertThat(reset.algorithm()).as("other keys untouched").isEqualTo(ElectionAlgorithm.WAIT_FOR_SYNC);
    }

    @Test
    void valuesWithSurroundingWhitespace_areTrimmed() {
        assertThat(PacerConfig.defaults()
                        .with("leader.imbalance.election.max.per.run", " 200 ")
                        .maxPerRun())
                .isEqualTo(200);
    }

    @Test
    void update_returnsANewValue_theOldOneIsUnchanged() {
        PacerConfig old = PacerConfig.defaults();

        PacerConfig changed = old.with("leader.imbalance.election.throttle.interval.ms", "15000");

        assertThat(changed.throttleIntervalMs()).isEqualTo(15_000);
        assertThat(old.throttleIntervalMs()).isZero();
    }

    @Test
    void recordConstructor_validatesToo() {
        assertThatThrownBy(() -> new PacerConfig(
                        300,
                        ElectionAlgorithm.IMMEDIATE,
                        150,
                        0,
                        1,
                        0,
                        new TreeSet<>(),
                        GateDenominator.ALL_PREFERRED,
                        MaxWaitClock.WHILE_ACTIVE,
                        GateRecheck.OFF,
                        PacerConfig.defaults().pacing()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("threshold.percent");
        assertThatThrownBy(() -> new PacerConfig(
                        300,
                        ElectionAlgorithm.IMMEDIATE,
                        5,
                        0,
                        0,
                        0,
                        new TreeSet<>(),
                        GateDenominator.ALL_PREFERRED,
                        MaxWaitClock.WHILE_ACTIVE,
                        GateRecheck.OFF,
                        PacerConfig.defaults().pacing()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("max.per.run");
        assertThatThrownBy(() -> new PacerConfig(
                        300,
                        ElectionAlgorithm.IMMEDIATE,
                        5,
                        0,
                        1,
                        0,
                        new TreeSet<>(List.of(-3)),
                        GateDenominator.ALL_PREFERRED,
                        MaxWaitClock.WHILE_ACTIVE,
                        GateRecheck.OFF,
                        PacerConfig.defaults().pacing()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("deprioritized");
    }

    @Test
    void deprioritizedSet_cannotBeChangedThroughTheAccessor() {
        PacerConfig c = PacerConfig.defaults().with("preferred.leader.deprioritized.list", "1,2");

        assertThatThrownBy(() -> c.deprioritizedBrokers().add(3)).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void configKeyCatalogue_documentsEveryKey() {
        assertThat(ConfigKey.names()).hasSize(22).doesNotHaveDuplicates();
        for (ConfigKey k : ConfigKey.values()) {
            assertThat(ConfigKey.forName(k.key())).isEqualTo(k);
            assertThat(k.doc()).isNotBlank();
            assertThat(k.allowed()).isNotBlank();
        }
        assertThat(ConfigKey.forName("no.such.key")).isNull();
    }
}
