package io.leaderpacer.agent.config;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The agent's keys: each found by its own name, under {@code pacer.}; an unknown name finds none. */
class AgentKeyTest {

    @Test
    void everyKey_isFoundByItsUniqueName() {
        assertThat(AgentKey.names())
                .hasSize(AgentKey.values().length)
                .doesNotHaveDuplicates()
                .allMatch(name -> name.startsWith("pacer."));
        for (AgentKey k : AgentKey.values()) {
            assertThat(AgentKey.forName(k.key())).isEqualTo(k);
            assertThat(k.doc()).isNotBlank();
            assertThat(k.allowed()).isNotBlank();
        }
    }

    @Test
    void unknownName_isNull() {
        assertThat(AgentKey.forName("pacer.http.prot")).isNull();
        assertThat(AgentKey.forName(null)).isNull();
    }
}
