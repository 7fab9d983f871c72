package io.leaderpacer.agent.config;

import io.leaderpacer.engine.config.ConfigKey;
import io.leaderpacer.engine.config.NamedKey;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ClosestKeyTest {

    @Test
    void oneLetterMissing_orSwapped_suggestsTheKnownKey() {
        assertThat(ClosestKey.to("leader.imbalance.election.algoritm", ConfigKey.names()))
                .hasValue("leader.imbalance.election.algorithm");
        assertThat(ClosestKey.to("leader.imbalance.election.algorihtm", ConfigKey.names()))
                .hasValue("leader.imbalance.election.algorithm");
        assertThat(ClosestKey.to("pacer.http.prot", NamedKey.names(AgentKey.class)))
                .hasValue("pacer.http.port");
    }

    @Test
    void unrelatedKey_getsNoGuess() {
        assertThat(ClosestKey.to("leader.imbalance.colour", ConfigKey.names())).isEmpty();
        assertThat(ClosestKey.suggestion("pacer.nothing.like.it", NamedKey.names(AgentKey.class)))
                .isEmpty();
    }
}
