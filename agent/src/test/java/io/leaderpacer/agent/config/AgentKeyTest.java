package io.leaderpacer.agent.config;

import io.leaderpacer.engine.config.NamedKey;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The agent's keys: each found by its own name, under {@code pacer.}; an unknown name finds none. */
class AgentKeyTest {

    @Test
    void everyKey_isFoundByItsUniqueName() {
        assertThat(NamedKey.names(AgentKey.class))
                .hasSize(AgentKey.values().length)
                .doesNotHaveDuplicates()
                .allMatch(name -> name.startsWith("pacer."));
        for (AgentKey k : AgentKey.values()) {
            assertThat(NamedKey.forName(AgentKey.class, k.key())).contains(k);
            assertThat(k.doc()).isNotBlank();
            assertThat(k.allowed()).isNotBlank();
        }
    }

    @Test
    void unknownName_isNull() {
        assertThat(NamedKey.forName(AgentKey.class, "pacer.http.prot")).isEmpty();
        assertThat(NamedKey.forName(AgentKey.class, null)).isEmpty();
    }
}
