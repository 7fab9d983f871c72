package io.leaderpacer.loadtest;

import io.leaderpacer.engine.config.ConfigKey;
import io.leaderpacer.engine.config.ElectionAlgorithm;
import io.leaderpacer.engine.config.PacerConfig;
import io.leaderpacer.engine.config.PacingMode;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class NamedPolicyTest {

    @Test
    void immediate_isKafkasBehaviour_withTheRunsCheckInterval() {
        PacerConfig c = NamedPolicy.parse("immediate", 117, 5).config();
        assertThat(c.algorithm()).isEqualTo(ElectionAlgorithm.IMMEDIATE);
        assertThat(c.maxPerRun()).isEqualTo(1000);
        assertThat(c.throttleIntervalMs()).isZero();
        assertThat(c.checkIntervalSeconds()).isEqualTo(5);
    }

    @Test
    void kipExampleScaled_returnsThePreferredPartitionsInAbout25Batches_asKip1358s5000In200s() {
        PacerConfig c = NamedPolicy.parse("kip-example-scaled", 117, 5).config();
        assertThat(c.waitForSync()).isTrue();
        assertThat(c.thresholdPercent()).isEqualTo(5.0);
        assertThat(c.maxPerRun()).isEqualTo(5);
        assertThat(c.throttleIntervalMs()).isEqualTo(2000);
        assertThat(NamedPolicy.parse("kip-example-scaled", 5000, 5).config().maxPerRun())
                .isEqualTo(200);
    }

    @Test
    void recommendedPaced_returnsTenPartitionsARun_whateverTheBrokersSize() {
        assertThat(NamedPolicy.parse("recommended-paced", 102, 5).config().maxPerRun())
                .isEqualTo(10);
        assertThat(NamedPolicy.parse("recommended-paced", 51, 2).config().maxPerRun())
                .isEqualTo(10);
        assertThat(NamedPolicy.parse("recommended-paced", 5000, 5).config().throttleIntervalMs())
                .isEqualTo(1000);
    }

    @Test
    void overrides_changeTheNamedKeys_andTheNameShowsThem() {
        NamedPolicy p = NamedPolicy.parse("kip-example-scaled:leader.imbalance.election.max.per.run=20", 117, 5);
        assertThat(p.config().maxPerRun()).isEqualTo(20);
        assertThat(p.name()).isEqualTo("kip-example-scaled:leader.imbalance.election.max.per.run=20");
    }

    @Test
    void brokerKeys_areBrokerSettingsForTheRound_notTheAgents_andTheDescriptionShowsThem() {
        NamedPolicy p = NamedPolicy.parse(
                "recommended-paced:broker.num.replica.fetchers=2,"
                        + "leader.imbalance.election.max.per.run=20 as paced-2",
                117,
                5);
        assertThat(p.brokerSettings()).containsExactly(Map.entry("num.replica.fetchers", "2"));
        assertThat(p.config().maxPerRun()).isEqualTo(20);
        assertThat(p.config().toMap()).doesNotContainKey("broker.num.replica.fetchers");
        assertThat(p.description()).endsWith("| brokers: num.replica.fetchers=2");
        assertThat(NamedPolicy.parse("immediate", 117, 5).brokerSettings()).isEmpty();
        assertThatThrownBy(() -> NamedPolicy.parse("immediate:broker.=2", 10, 5))
                .hasMessageContaining("broker setting 'broker.=2' needs a key and a value");
    }

    @Test
    void restartedKeys_areStaticSettingsOfTheRestartedBroker_notTheAgentsNorEveryBrokers() {
        NamedPolicy p = NamedPolicy.parse(
                "recommended-paced:restarted.replica.fetch.max.bytes=262144,"
                        + "restarted.replica.fetch.response.max.bytes=1048576 as paced-small-fetches",
                117,
                5);
        assertThat(p.restartedSettings())
                .containsExactly(
                        Map.entry("replica.fetch.max.bytes", "262144"),
                        Map.entry("replica.fetch.response.max.bytes", "1048576"));
        assertThat(p.brokerSettings()).isEmpty();
        assertThat(p.config().toMap()).doesNotContainKey("restarted.replica.fetch.max.bytes");
        assertThat(p.description())
                .endsWith("| restarted broker: replica.fetch.max.bytes=262144"
                        + " replica.fetch.response.max.bytes=1048576");
        assertThatThrownBy(() -> NamedPolicy.parse("immediate:restarted.=2", 10, 5))
                .hasMessageContaining("restarted-broker setting 'restarted.=2' needs a key and a value");
    }

    @Test
    void unknownPolicy_orBadValue_isRejectedNamingWhatIsWrong() {
        assertThatThrownBy(() -> NamedPolicy.parse("fastest", 10, 5))
                .hasMessageContaining("unknown policy 'fastest'")
                .hasMessageContaining("immediate, kip-example, kip-example-scaled");
        assertThatThrownBy(() -> NamedPolicy.parse("immediate:leader.imbalance.election.max.per.run=0", 10, 5))
                .hasMessageContaining("leader.imbalance.election.max.per.run");
        assertThatThrownBy(() -> NamedPolicy.parse("immediate:oops", 10, 5)).hasMessageContaining("expected key=value");
    }

    @Test
    void retiredWaitForSync_isRejected_sayingWhichNameTheLoadTestsIsNow() {
        assertThatThrownBy(() -> NamedPolicy.parse("wait-for-sync", 10, 5))
                .hasMessageContaining("unknown policy 'wait-for-sync'")
                .hasMessageContaining("load test's and the demo's kip-example-scaled");
    }

    @Test
    void everyRegisteredPolicy_theAgentCanRun_isAccepted_theModelledThrottleIsNot() {
        assertThat(NamedPolicy.parse("recommended", 117, 5).config().valueOf(ConfigKey.RECHECK_INTERVAL_MS))
                .isEqualTo("15000");
        assertThat(NamedPolicy.parse("kip-example", 117, 5).config().maxPerRun())
                .isEqualTo(200);
        assertThatThrownBy(() -> NamedPolicy.parse("replication-throttle", 117, 5))
                .hasMessageContaining("modelled by the simulator only");
    }

    @Test
    void aPolicyWithSettings_canBeLabelled_forTheReports() {
        NamedPolicy p = NamedPolicy.parse(
                "recommended:leader.imbalance.catch.up.pacing=static,"
                        + "leader.imbalance.catch.up.pacing.rate.bytes=10485760 as paced-10m",
                100,
                5);

        assertThat(p.name()).isEqualTo("paced-10m");
        assertThat(p.config().pacing().rateBytes()).isEqualTo(10485760L);
        assertThat(p.config().pacing().mode()).isEqualTo(PacingMode.STATIC);
        assertThatThrownBy(() -> NamedPolicy.parse("immediate as a b", 100, 5))
                .hasMessageContaining("policy label 'a b'");
    }
}
