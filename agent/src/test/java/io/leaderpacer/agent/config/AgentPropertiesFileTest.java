package io.leaderpacer.agent.config;

import io.leaderpacer.engine.config.ElectionAlgorithm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AgentPropertiesFileTest {

    @TempDir
    Path dir;

    @Test
    void completeFile_splitsClientPolicyAndAgentKeys() throws Exception {
        Path f = write("""
                bootstrap.servers=b1:9092,b2:9092
                security.protocol=SASL_SSL
                sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="a" password="pw-123";
                leader.imbalance.election.algorithm=wait-for-sync
                leader.imbalance.election.max.per.run=50
                pacer.http.port=0
                pacer.request.timeout.ms=5000
                """);
        AgentProperties p = new AgentPropertiesFile(f).load();
        assertThat(p.bootstrapServers()).isEqualTo("b1:9092,b2:9092");
        assertThat(p.clientProperties())
                .containsKeys("security.protocol", "sasl.jaas.config")
                .doesNotContainKeys("leader.imbalance.election.algorithm", "pacer.http.port");
        assertThat(p.policy().algorithm()).isEqualTo(ElectionAlgorithm.WAIT_FOR_SYNC);
        assertThat(p.policy().maxPerRun()).isEqualTo(50);
        assertThat(p.httpPort()).isZero();
        assertThat(p.httpHost()).isEqualTo("127.0.0.1");
        assertThat(p.requestTimeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(p.adminClientConfig())
                .containsEntry("request.timeout.ms", "5000")
                .containsEntry("sasl.jaas.config", p.clientProperties().get("sasl.jaas.config"));
    }

    @Test
    void toString_neverShowsSecrets() throws Exception {
        AgentProperties p =
                new AgentPropertiesFile(write("bootstrap.servers=b:9092\nssl.keystore.password=ks-pass-77\n")).load();
        assertThat(p.toString()).doesNotContain("ks-pass-77").contains(SecretRedactor.REDACTED);
    }

    @Test
    void missingBootstrapServers_isNamed() throws Exception {
        Path f = write("security.protocol=SSL\n");
        assertThatThrownBy(() -> new AgentPropertiesFile(f).load())
                .isInstanceOf(AgentConfigException.class)
                .hasMessageContaining(f.toString())
                .hasMessageContaining("'bootstrap.servers' is required");
    }

    @Test
    void misspelledPolicyKey_isRejectedWithTheClosestKeyAndTheKnownKeys() throws Exception {
        Path f = write("bootstrap.servers=b:9092\nleader.imbalance.election.algoritm=wait-for-sync\n");
        assertThatThrownBy(() -> new AgentPropertiesFile(f).load())
                .isInstanceOf(AgentConfigException.class)
                .hasMessageContaining("unknown policy key 'leader.imbalance.election.algoritm';"
                        + " did you mean 'leader.imbalance.election.algorithm'?; known policy keys: ");
    }

    @Test
    void unknownDeprioritizedPrefixKey_isRejected() throws Exception {
        Path f = write("bootstrap.servers=b:9092\npreferred.leader.deprioritised.list=1\n");
        assertThatThrownBy(() -> new AgentPropertiesFile(f).load())
                .hasMessageContaining("unknown policy key 'preferred.leader.deprioritised.list'");
    }

    @Test
    void unknownAgentKey_isRejectedWithTheKnownKeys() throws Exception {
        Path f = write("bootstrap.servers=b:9092\npacer.http.prot=8080\n");
        assertThatThrownBy(() -> new AgentPropertiesFile(f).load())
                .hasMessageContaining("unknown agent key 'pacer.http.prot'; did you mean 'pacer.http.port'?");
    }

    @Test
    void invalidPolicyValue_namesFileKeyValueAndRange() throws Exception {
        Path f = write("bootstrap.servers=b:9092\nleader.imbalance.election.wait.for.sync.threshold.percent=150\n");
        assertThatThrownBy(() -> new AgentPropertiesFile(f).load())
                .isInstanceOf(AgentConfigException.class)
                .hasMessageContaining(f.toString())
                .hasMessageContaining("'150'")
                .hasMessageContaining("leader.imbalance.election.wait.for.sync.threshold.percent")
                .hasMessageContaining("between 0 and 100");
    }

    @Test
    void invalidAgentValue_namesKeyValueAndRange() throws Exception {
        Path f = write("bootstrap.servers=b:9092\npacer.http.port=70000\n");
        assertThatThrownBy(() -> new AgentPropertiesFile(f).load())
                .hasMessageContaining("invalid value '70000' for 'pacer.http.port'")
                .hasMessageContaining("65535");
    }

    @Test
    void missingFile_isNamed() {
        Path f = dir.resolve("nope.properties");
        assertThatThrownBy(() -> new AgentPropertiesFile(f).load()).hasMessage(f + ": file not found");
    }

    @Test
    void unknownClientKey_isPassedThroughForKafkaToJudge() throws Exception {
        AgentProperties p =
                new AgentPropertiesFile(write("bootstrap.servers=b:9092\nclient.dns.lookup=use_all_dns_ips\n")).load();
        assertThat(p.adminClientConfig()).containsEntry("client.dns.lookup", "use_all_dns_ips");
    }

    private Path write(String text) throws Exception {
        Path f = dir.resolve("agent.properties");
        Files.writeString(f, text);
        return f;
    }
}
