package io.leaderpacer.agent.config;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ClientSettingsTest {

    private static final Map<String, String> FILE = Map.ofEntries(
            Map.entry("bootstrap.servers", "b1:9092"),
            Map.entry("security.protocol", "SASL_SSL"),
            Map.entry("sasl.jaas.config", "secret-line"),
            Map.entry("ssl.truststore.location", "/etc/kafka/ts.jks"),
            Map.entry("config.providers", "dir"),
            Map.entry("config.providers.dir.class", "org.apache.kafka.common.config.provider.DirectoryConfigProvider"),
            Map.entry("acks", "1"),
            Map.entry("enable.idempotence", "false"),
            Map.entry("transactional.id", "operators-own"),
            Map.entry("leader.imbalance.election.max.per.run", "5"),
            Map.entry("value.serializer", "x.Y"));

    @Test
    void consumerSettings_keepSecurityAndKnownKeys_dropPolicyKeysAndSerializers() {
        Map<String, Object> props = ClientSettings.forClient(FILE, ConsumerConfig.configNames());

        assertThat(props)
                .containsEntry("security.protocol", "SASL_SSL")
                .containsEntry("sasl.jaas.config", "secret-line")
                .containsEntry("ssl.truststore.location", "/etc/kafka/ts.jks")
                .containsEntry("bootstrap.servers", "b1:9092")
                .containsEntry("config.providers", "dir")
                .containsEntry(
                        "config.providers.dir.class", "org.apache.kafka.common.config.provider.DirectoryConfigProvider")
                .doesNotContainKeys("leader.imbalance.election.max.per.run", "value.serializer", "acks");
    }

    @Test
    void durableProducer_cannotBeWeakenedByTheFile_andBoundsItsTimeOuts() {
        Map<String, Object> props = ClientSettings.durableProducer(FILE, Duration.ofSeconds(30));

        assertThat(props)
                .containsEntry("acks", "all")
                .containsEntry("enable.idempotence", true)
                .doesNotContainKey("transactional.id")
                .containsEntry("max.block.ms", 30_000L)
                .containsEntry("request.timeout.ms", 15_000)
                .containsEntry("delivery.timeout.ms", 45_000)
                .containsEntry("ssl.truststore.location", "/etc/kafka/ts.jks");
    }

    @Test
    void durableProducer_shortTimeout_keepsRequestsAtLeastOneSecond() {
        Map<String, Object> props = ClientSettings.durableProducer(Map.of(), Duration.ofMillis(500));

        assertThat(props).containsEntry("request.timeout.ms", 1000).containsEntry("delivery.timeout.ms", 1500);
    }
}
