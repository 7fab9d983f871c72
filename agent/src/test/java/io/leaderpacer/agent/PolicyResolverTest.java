package io.leaderpacer.agent;

import ch.qos.logback.classic.Level;
import io.leaderpacer.agent.config.AgentConfigException;
import io.leaderpacer.agent.config.AgentPropertiesFile;
import io.leaderpacer.agent.config.SecretRedactor;
import io.leaderpacer.agent.core.ConfigSource;
import io.leaderpacer.engine.config.ElectionAlgorithm;
import io.leaderpacer.engine.config.PacerConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class PolicyResolverTest {

    @TempDir
    Path dir;

    @Test
    void overrides_applyOnTopOfTheBase() {
        PolicyResolver r = new PolicyResolver(
                () -> PacerConfig.defaults().with("leader.imbalance.election.max.per.run", "10"),
                () -> Map.of("leader.imbalance.election.algorithm", "wait-for-sync"),
                SecretRedactor.none());
        PacerConfig c = r.resolve();
        assertThat(c.maxPerRun()).isEqualTo(10);
        assertThat(c.algorithm()).isEqualTo(ElectionAlgorithm.WAIT_FOR_SYNC);
        assertThat(r.problem()).isEmpty();
    }

    @Test
    void invalidBase_problemForStatus_namesNoJavaClass() {
        PolicyResolver r = new PolicyResolver(
                () -> {
                    throw new AgentConfigException(
                            "agent.properties: leader.imbalance.election.max.per.run: '0' must be >= 1");
                },
                Map::of,
                SecretRedactor.none());
        r.resolve();
        assertThat(r.problem())
                .hasValue("invalid base configuration: agent.properties: leader.imbalance.election.max.per.run:"
                        + " '0' must be >= 1");
    }

    @Test
    void invalidOverride_keepsThePreviousConfigurationAndIsLoggedOnce() {
        Map<String, String> stored = new HashMap<>(Map.of("leader.imbalance.election.max.per.run", "20"));
        PolicyResolver r = new PolicyResolver(PacerConfig::defaults, () -> Map.copyOf(stored), SecretRedactor.none());
        assertThat(r.resolve().maxPerRun()).isEqualTo(20);

        stored.put("leader.imbalance.election.max.per.run", "0");
        try (CapturedLogs logs = CapturedLogs.of(PolicyResolver.class.getName(), Level.INFO)) {
            assertThat(r.resolve().maxPerRun()).isEqualTo(20);
            assertThat(r.resolve().maxPerRun()).isEqualTo(20);
            assertThat(r.problem())
                    .get()
                    .asString()
                    .contains("leader.imbalance.election.max.per.run")
                    .contains("'0'");
            assertThat(logs.messagesOf("PolicyResolver"))
                    .hasSize(1)
                    .first()
                    .asString()
                    .contains("keeping the previous configuration");
        }

        stored.put("leader.imbalance.election.max.per.run", "30");
        assertThat(r.resolve().maxPerRun()).isEqualTo(30);
        assertThat(r.problem()).isEmpty();
    }

    @Test
    void editedPropertiesFile_appliesOnTheNextResolution_andABrokenEditIsIgnored() throws Exception {
        Path f = dir.resolve("agent.properties");
        Files.writeString(f, "bootstrap.servers=b:9092\nleader.imbalance.election.throttle.interval.ms=100\n");
        AgentPropertiesFile file = new AgentPropertiesFile(f);
        PolicyResolver r = new PolicyResolver(() -> file.load().policy(), ConfigSource.NONE, SecretRedactor.none());
        assertThat(r.resolve().throttleIntervalMs()).isEqualTo(100);

        Files.writeString(f, "bootstrap.servers=b:9092\nleader.imbalance.election.throttle.interval.ms=2500\n");
        assertThat(r.resolve().throttleIntervalMs()).isEqualTo(2500);

        Files.writeString(f, "bootstrap.servers=b:9092\nleader.imbalance.election.throttle.interval.ms=-1\n");
        assertThat(r.resolve().throttleIntervalMs()).isEqualTo(2500);
        assertThat(r.problem()).get().asString().contains(f.toString()).contains("'-1'");
    }

    @Test
    void unreadableOverrides_fallBackToDefaultsBeforeAnyGoodConfiguration() {
        PolicyResolver r = new PolicyResolver(
                PacerConfig::defaults,
                () -> {
                    throw new IllegalStateException("config topic unreadable");
                },
                SecretRedactor.none());
        assertThat(r.resolve()).isEqualTo(PacerConfig.defaults());
        assertThat(r.problem()).get().asString().contains("config topic unreadable");
    }

    @Test
    void problemMessages_areScrubbedOfSecrets() {
        SecretRedactor redactor = SecretRedactor.of(Map.of("ssl.key.password", "topsecret-1"));
        PolicyResolver r = new PolicyResolver(
                PacerConfig::defaults,
                () -> {
                    throw new IllegalStateException("auth failed with topsecret-1");
                },
                redactor);
        try (CapturedLogs logs = CapturedLogs.of(PolicyResolver.class.getName(), Level.DEBUG)) {
            r.resolve();
            assertThat(logs.text()).doesNotContain("topsecret-1");
        }
        assertThat(r.problem()).get().asString().doesNotContain("topsecret-1");
    }
}
