package io.leaderpacer.agent.core;

import io.leaderpacer.engine.GatePhase;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class GatePhaseLabelTest {

    @Test
    void downBroker_notGated_isInactive_notOpen() {
        assertThat(GatePhaseLabel.of(GatePhase.OPEN, false)).isEqualTo("INACTIVE");
        assertThat(GatePhaseLabel.of(GatePhase.NOT_APPLICABLE, false)).isEqualTo("INACTIVE");
        assertThat(GatePhaseLabel.of(GatePhase.ESCAPED, false)).isEqualTo("INACTIVE");
    }

    @Test
    void downBroker_gated_staysGated_upBroker_keepsTheEnginesPhase() {
        assertThat(GatePhaseLabel.of(GatePhase.GATED, false)).isEqualTo("GATED");
        assertThat(GatePhaseLabel.of(GatePhase.OPEN, true)).isEqualTo("OPEN");
        assertThat(GatePhaseLabel.of(GatePhase.ESCAPED, true)).isEqualTo("ESCAPED");
    }
}
