package io.leaderpacer.engine.cluster;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class GateTalliesTest {

    @Test
    void aShareAddedThenTakenBack_leavesEveryCountAtZero() {
        GateTallies t = new GateTallies();
        t.count(1, +1, true, false, false, false);
        t.count(1, -1, true, false, false, false);
        ClusterState.Counts c = t.copy(2);
        assertThat(c.total()).containsExactly(0, 0);
        assertThat(c.outOfSyncImbalanced()).containsExactly(0, 0);
        assertThat(c.candidateCount()).isZero();
    }

    @Test
    void takingBackAShareNeverAdded_isRefused() {
        GateTallies t = new GateTallies();
        assertThatThrownBy(() -> t.count(1, -1, true, false, false, false))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("below zero at broker index 1");
    }
}
