package io.leaderpacer.loadtest;

import io.leaderpacer.engine.config.ElectionAlgorithm;
import io.leaderpacer.engine.config.PacerConfig;
import org.junit.jupiter.api.Test;

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
    void waitForSync_returnsThePreferredPartitionsInAbout25Batches_asTheSeeds5000In200s() {
        PacerConfig c = NamedPolicy.parse("wait-for-sync", 117, 5).config();
        assertThat(c.waitForSync()).isTrue();
        assertThat(c.thresholdPercent()).isEqualTo(5.0);
        assertThat(c.maxPerRun()).isEqualTo(5);
        assertThat(c.throttleIntervalMs()).isEqualTo(2000);
        assertThat(NamedPolicy.parse("wait-for-sync", 5000, 5).config().maxPerRun()).isEqualTo(200);
    }

    @Test
    void overrides_changeTheNamedKeys_andTheNameShowsThem() {
        NamedPolicy p = NamedPolicy.parse("wait-for-sync:leader.imbalance.election.max.per.run=20", 117, 5);
        assertThat(p.config().maxPerRun()).isEqualTo(20);
        assertThat(p.name()).isEqualTo("wait-for-sync:leader.imbalance.election.max.per.run=20");
    }

    @Test
    void unknownPolicy_orBadValue_isRejectedNamingWhatIsWrong() {
        assertThatThrownBy(() -> NamedPolicy.parse("fastest", 10, 5)).hasMessageContaining("unknown policy 'fastest'")
                .hasMessageContaining("immediate, wait-for-sync");
        assertThatThrownBy(() -> NamedPolicy.parse("immediate:leader.imbalance.election.max.per.run=0", 10, 5))
                .hasMessageContaining("leader.imbalance.election.max.per.run");
        assertThatThrownBy(() -> NamedPolicy.parse("immediate:oops", 10, 5)).hasMessageContaining("expected key=value");
    }
}
