package io.leaderpacer.agent.config;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ClientSettingsTest {

    private static final Map<String, String> FILE = Map.of(
            "bootstrap.servers", "b1:9092",
            "security.protocol", "SASL_SSL",
            "sasl.jaas.config", "secret-line",
            "ssl.truststore.location", "/etc/kafka/ts.jks",
            "acks", "1",
            "enable.idempotence", "false",
            "transactional.id", "operators-own",
            "leader.imbalance.election.max.per.run", "5",
            "value.serializer", "x.Y");

    @Test
    void consumerSettings_keepSecurityAndKnownKeys_dropPolicyKeysAndSerializers() {
        Map<String, Object> props = ClientSettings.forClient(FILE, ConsumerConfig.configNames());

        assertThat(props)
                .containsEntry("security.protocol", "SASL_SSL")
                .containsEntry("sasl.jaas.config", "secret-line")
                .containsEntry("ssl.truststore.location", "/etc/kafka/ts.jks")
                .containsEntry("bootstrap.servers", "b1:9092")
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
