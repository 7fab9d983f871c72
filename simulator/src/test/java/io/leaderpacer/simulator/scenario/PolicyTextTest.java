package io.leaderpacer.simulator.scenario;

import io.leaderpacer.engine.config.PacingMode;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code NAME:key=value,...} in a scenario's policies and in {@code --policy}, as the load test writes it. */
class PolicyTextTest {

    private static final String SCENARIO = String.join(
            "\n",
            "name: tiny",
            "cluster: {brokers: 3}",
            "topics: [{name: t, partitions: 30, produceMBps: 30}]",
            "timeline: {end: 20m, events: [{at: 5m, restart: {broker: 0, down: 2m}}]}",
            "customPolicies: [{name: mine, config: {leader.imbalance.election.max.per.run: \"7\"}, replicationThrottleMBps: 50}]",
            "policies:",
            "  - recommended:leader.imbalance.catch.up.pacing=static,leader.imbalance.catch.up.pacing.rate.bytes=20971520",
            "  - mine:leader.imbalance.catch.up.pacing=adaptive",
            "");

    @Test
    void registeredPolicyWithKeys_isThatPolicyWithTheKeysChanged_namedByTheWholeText() {
        Scenario s = new ScenarioLoader().parse("tiny.yaml", SCENARIO);
        PolicySpec p = s.policies().get(1);
        assertThat(p.name())
                .isEqualTo(
                        "recommended:leader.imbalance.catch.up.pacing=static,leader.imbalance.catch.up.pacing.rate.bytes=20971520");
        assertThat(p.config().pacing().mode()).isEqualTo(PacingMode.STATIC);
        assertThat(p.config().pacing().rateBytes()).isEqualTo(20_971_520);
        // The rest is recommended's.
        assertThat(p.config().recheck())
                .isEqualTo(StandardPolicies.named("recommended", 10).config().recheck());
    }

    @Test
    void customPolicyWithKeys_keepsItsOwnKeysAndThrottle() {
        PolicySpec p =
                new ScenarioLoader().parse("tiny.yaml", SCENARIO).policies().get(2);
        assertThat(p.config().maxPerRun()).isEqualTo(7);
        assertThat(p.config().pacing().mode()).isEqualTo(PacingMode.ADAPTIVE);
        assertThat(p.replicationThrottleBytesPerSecond()).isEqualTo(50e6);
    }

    @Test
    void badKeyOrValue_isAnErrorNamingThePolicy() {
        assertThatThrownBy(() -> PolicyText.resolve("recommended:leader.imbalance.catch.up.pacing=fast", Map.of(), 10))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("policy 'recommended'")
                .hasMessageContaining("leader.imbalance.catch.up.pacing");
        assertThatThrownBy(() -> PolicyText.resolve("recommended:novalue", Map.of(), 10))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("expected key=value");
        assertThat(PolicyText.resolve("nobody:a=b", Map.of(), 10)).isNull();
    }

    @Test
    void rejoin_putsBackWhatACommaSeparatedOptionSplit() {
        assertThat(PolicyText.rejoin(List.of("immediate", "recommended:a=1", "b=2", "kip-example")))
                .containsExactly("immediate", "recommended:a=1,b=2", "kip-example");
    }
}
