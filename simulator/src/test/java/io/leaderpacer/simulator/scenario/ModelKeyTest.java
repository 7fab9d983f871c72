package io.leaderpacer.simulator.scenario;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The model parameters: each found by its own scenario-file name; an unknown name finds none. */
class ModelKeyTest {

    @Test
    void everyKey_isFoundByItsUniqueName() {
        assertThat(ModelKey.keys()).hasSize(ModelKey.values().length).doesNotHaveDuplicates();
        for (ModelKey k : ModelKey.values()) {
            assertThat(ModelKey.forKey(k.key())).isEqualTo(k);
        }
    }

    @Test
    void unknownName_isNull() {
        assertThat(ModelKey.forKey("networkInMbps")).isNull();
        assertThat(ModelKey.forKey(null)).isNull();
    }
}
