package io.leaderpacer.agent.pacing;

import io.leaderpacer.embedded.EmbeddedKafkaCluster;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The controller's limit on the config changes one request may carry, measured once on a real cluster, so that the
 * constant pacing sizes its requests by (and the test model of Kafka refuses at) is Kafka's and not an assumption:
 * 10,000 changes in one {@code incrementalAlterConfigs} land, 10,001 are refused whole.
 */
@Tag("cluster")
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class ControllerRecordLimitClusterTest {

    /** Topic configs whose values any topic accepts, each set to a value other than its default. */
    private static final Map<String, String> KEYS = Map.ofEntries(
            Map.entry("retention.ms", "86400001"),
            Map.entry("segment.ms", "86400002"),
            Map.entry("delete.retention.ms", "86400003"),
            Map.entry("file.delete.delay.ms", "60004"),
            Map.entry("flush.messages", "1000005"),
            Map.entry("flush.ms", "1000006"),
            Map.entry("index.interval.bytes", "4007"),
            Map.entry("max.compaction.lag.ms", "86400008"),
            Map.entry("min.compaction.lag.ms", "9"),
            Map.entry("retention.bytes", "1000000010"),
            Map.entry("segment.jitter.ms", "11"),
            Map.entry("max.message.bytes", "1000012"),
            Map.entry("message.timestamp.after.max.ms", "86400013"),
            Map.entry("message.timestamp.before.max.ms", "86400014"),
            Map.entry("follower.replication.throttled.replicas", "0:0"),
            Map.entry("leader.replication.throttled.replicas", "0:0"),
            Map.entry("min.cleanable.dirty.ratio", "0.4"),
            Map.entry("preallocate", "true"),
            Map.entry("unclean.leader.election.enable", "true"),
            Map.entry("compression.type", "lz4"));

    private static final int TOPICS = 501;

    private static EmbeddedKafkaCluster cluster;

    @BeforeAll
    static void startCluster() throws Exception {
        cluster = EmbeddedKafkaCluster.builder().brokers(1).build().start();
        List<NewTopic> topics = new ArrayList<>();
        for (int t = 0; t < TOPICS; t++) {
            topics.add(new NewTopic("limit-" + t, 1, (short) 1));
        }
        cluster.admin().createTopics(topics).all().get(120, TimeUnit.SECONDS);
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    /** {@code changes} config changes, {@link #KEYS} on each topic in turn, with values {@code shift} from the keys'. */
    private static Map<ConfigResource, Collection<AlterConfigOp>> changes(int changes, int shift) {
        Map<ConfigResource, Collection<AlterConfigOp>> out = new HashMap<>();
        List<Map.Entry<String, String>> keys = new ArrayList<>(KEYS.entrySet());
        for (int i = 0; i < changes; i++) {
            ConfigResource topic = new ConfigResource(ConfigResource.Type.TOPIC, "limit-" + i / keys.size());
            Map.Entry<String, String> k = keys.get(i % keys.size());
            String value =
                    k.getValue().matches("\\d+") ? Long.toString(Long.parseLong(k.getValue()) + shift) : k.getValue();
            out.computeIfAbsent(topic, x -> new ArrayList<>())
                    .add(new AlterConfigOp(new ConfigEntry(k.getKey(), value), AlterConfigOp.OpType.SET));
        }
        return out;
    }

    @Test
    void tenThousandChangesInOneRequestLand_tenThousandAndOneAreRefusedWhole() throws Exception {
        int limit = ThrottleReconciler.Limits.KAFKA_MAX_RECORDS_PER_REQUEST;
        assertThatThrownBy(() -> cluster.admin()
                        .incrementalAlterConfigs(changes(limit + 1, 0))
                        .all()
                        .get(60, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class);
        assertThat(cluster.admin()
                        .describeConfigs(List.of(new ConfigResource(ConfigResource.Type.TOPIC, "limit-0")))
                        .all()
                        .get(30, TimeUnit.SECONDS)
                        .values()
                        .iterator()
                        .next()
                        .get("retention.ms")
                        .value())
                .as("refused whole: not even the first change landed")
                .isEqualTo("604800000");

        cluster.admin().incrementalAlterConfigs(changes(limit, 0)).all().get(60, TimeUnit.SECONDS);
        // Pacing's requests: half the limit, with the same changes counted the same way.
        cluster.admin()
                .incrementalAlterConfigs(changes(ThrottleReconciler.Limits.MAX_OPS_PER_REQUEST, 1))
                .all()
                .get(60, TimeUnit.SECONDS);
    }
}
