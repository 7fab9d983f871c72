package io.leaderpacer.testbed;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ServerDefaultsTest {

    @Test
    void smallCluster_fastReRegistrationNoAutoRebalance_internalTopicsSizedToTheBrokers() {
        assertThat(ServerDefaults.smallCluster(3))
                .containsEntry("broker.session.timeout.ms", "3000")
                .containsEntry("broker.heartbeat.interval.ms", "500")
                .containsEntry("auto.leader.rebalance.enable", "false")
                .containsEntry("offsets.topic.replication.factor", "3")
                .containsEntry("transaction.state.log.replication.factor", "3")
                .containsEntry("num.io.threads", "4");
        assertThat(ServerDefaults.smallCluster(1)).containsEntry("offsets.topic.replication.factor", "1");
        assertThat(ServerDefaults.smallCluster(5)).containsEntry("offsets.topic.replication.factor", "3");
    }

    @Test
    void smallCluster_isTheCallersToChange() {
        ServerDefaults.smallCluster(3).put("num.io.threads", "1");
        assertThat(ServerDefaults.smallCluster(3)).containsEntry("num.io.threads", "4");
    }

    @Test
    void noBrokers_isRefused() {
        assertThatThrownBy(() -> ServerDefaults.smallCluster(0)).hasMessageContaining("brokers must be >= 1");
    }

    @Test
    void keyStoreFile_neverShowsItsPassword() {
        assertThat(new KeyStoreFile(Path.of("/s/broker.p12"), "secret-pw").toString())
                .contains("/s/broker.p12")
                .doesNotContain("secret-pw");
    }
}
