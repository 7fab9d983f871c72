package io.leaderpacer.compat;

import io.leaderpacer.agent.throttle.BrokerScope;
import io.leaderpacer.agent.throttle.ReplicationThrottles;
import io.leaderpacer.agent.throttle.ThrottleChange;
import io.leaderpacer.agent.throttle.ThrottleRate;
import io.leaderpacer.agent.throttle.ThrottleSettings;
import io.leaderpacer.agent.throttle.ThrottleSide;
import io.leaderpacer.agent.throttle.ThrottledReplicas;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.ElectionType;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;

/**
 * Test support: the moves of the compatibility story on a cluster known only by its Admin client and address.
 *
 * <p>Why not the agent module's {@code RecoveryScenario}: that one drives the in-JVM cluster's own methods; these
 * are the same moves through Kafka's public API only, so they work the same on every version's processes.
 */
final class ClusterMoves {

    private final Admin admin;
    private final String bootstrap;
    /** Kafka's replication throttles on this cluster (each call bounded by 30 s). */
    private final ReplicationThrottles throttles;

    ClusterMoves(Admin admin, String bootstrap) {
        this.admin = admin;
        this.bootstrap = bootstrap;
        this.throttles = new ReplicationThrottles(admin, Duration.ofSeconds(30));
    }

    void createTopic(String topic, int partitions) throws Exception {
        admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 3)))
                .all()
                .get(30, TimeUnit.SECONDS);
        await().atMost(Duration.ofSeconds(60))
                .ignoreExceptions()
                .until(() -> describe(topic).stream()
                        .allMatch(p -> p.leader() != null && p.isr().size() == 3));
    }

    List<TopicPartitionInfo> describe(String topic) throws Exception {
        TopicDescription d = admin.describeTopics(List.of(topic))
                .allTopicNames()
                .get(30, TimeUnit.SECONDS)
                .get(topic);
        return d.partitions();
    }

    /** Replica order of every partition of every topic, internal ones included (the agent reorders those too). */
    Map<TopicPartition, List<Integer>> replicaOrders() throws Exception {
        Collection<String> names = admin.listTopics(new ListTopicsOptions().listInternal(true))
                .names()
                .get(30, TimeUnit.SECONDS);
        Map<TopicPartition, List<Integer>> out =
                new TreeMap<>((a, b) -> a.toString().compareTo(b.toString()));
        for (TopicDescription d : admin.describeTopics(names)
                .allTopicNames()
                .get(30, TimeUnit.SECONDS)
                .values()) {
            for (TopicPartitionInfo p : d.partitions()) {
                out.put(
                        new TopicPartition(d.name(), p.partition()),
                        p.replicas().stream().map(Node::id).toList());
            }
        }
        return out;
    }

    /** Partitions (all topics) whose leader is not their first replica. */
    long imbalanced() throws Exception {
        Collection<String> names = admin.listTopics(new ListTopicsOptions().listInternal(true))
                .names()
                .get(30, TimeUnit.SECONDS);
        long n = 0;
        for (TopicDescription d : admin.describeTopics(names)
                .allTopicNames()
                .get(30, TimeUnit.SECONDS)
                .values()) {
            for (TopicPartitionInfo p : d.partitions()) {
                if (p.leader() == null || p.leader().id() != p.replicas().get(0).id()) {
                    n++;
                }
            }
        }
        return n;
    }

    long preferredBy(String topic, int broker) throws Exception {
        return describe(topic).stream()
                .filter(p -> p.replicas().get(0).id() == broker)
                .count();
    }

    long ledAsPreferred(String topic, int broker) throws Exception {
        return describe(topic).stream()
                .filter(p -> p.replicas().get(0).id() == broker
                        && p.leader() != null
                        && p.leader().id() == broker)
                .count();
    }

    /** Partitions of the topic whose ISR holds the broker. */
    long inSyncOn(String topic, int broker) throws Exception {
        return describe(topic).stream()
                .filter(p -> p.isr().stream().anyMatch(n -> n.id() == broker))
                .count();
    }

    /** Partitions of the topic that lead on the broker. */
    long ledBy(String topic, int broker) throws Exception {
        return describe(topic).stream()
                .filter(p -> p.leader() != null && p.leader().id() == broker)
                .count();
    }

    /** Waits for full ISRs, then elects every preferred leader (Kafka's own tool's call). */
    void rebalance(String topic) {
        await().atMost(Duration.ofSeconds(120))
                .pollInterval(Duration.ofMillis(500))
                .ignoreExceptions()
                .until(() -> {
                    if (!describe(topic).stream()
                            .allMatch(p -> p.isr().size() == p.replicas().size())) {
                        return false;
                    }
                    admin.electLeaders(ElectionType.PREFERRED, null)
                            .partitions()
                            .get(30, TimeUnit.SECONDS);
                    return imbalanced() == 0;
                });
    }

    /**
     * The broker's follower throttle (set on it before it goes down: the request is routed to it), and the same rate
     * as a leader throttle on the other brokers. The leaders' quota
     * is in force before the broker starts again; its own is applied only after its fetchers have started (Kafka
     * applies dynamic configs after the replica changes of the same metadata publish), and without the leaders' it
     * catches up partly unthrottled before it is unfenced.
     */
    void setFollowerThrottle(int broker, long bytesPerSecond, String topic, List<Integer> leaders) throws Exception {
        BrokerScope follower = BrokerScope.broker(broker);
        ThrottleChange change = throttles.change().setRate(ThrottleSide.FOLLOWER, follower, bytesPerSecond);
        for (int leader : leaders) {
            change.setRate(ThrottleSide.LEADER, BrokerScope.broker(leader), bytesPerSecond);
        }
        change.setReplicas(ThrottleSide.FOLLOWER, topic, ThrottledReplicas.ALL)
                .setReplicas(ThrottleSide.LEADER, topic, ThrottledReplicas.ALL)
                .apply();
        await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> {
            ThrottleSettings now = throttles.describe(List.of(follower), List.of(topic));
            return now.rate(ThrottleSide.FOLLOWER, follower)
                            .map(ThrottleRate::bytesPerSecond)
                            .equals(Optional.of(bytesPerSecond))
                    && now.replicas(ThrottleSide.FOLLOWER, topic)
                            .filter(ThrottledReplicas::all)
                            .isPresent();
        });
    }

    void clearFollowerThrottle(int broker, String topic, List<Integer> leaders) throws Exception {
        ThrottleChange change = throttles.change().removeRate(ThrottleSide.FOLLOWER, BrokerScope.broker(broker));
        for (int leader : leaders) {
            change.removeRate(ThrottleSide.LEADER, BrokerScope.broker(leader));
        }
        change.clearReplicas(ThrottleSide.FOLLOWER, topic)
                .clearReplicas(ThrottleSide.LEADER, topic)
                .apply();
    }

    /**
     * About {@code totalBytes} into the topic's partitions whose preferred replica is {@code broker}, the k-th of them
     * getting a share proportional to k, and nothing into the others. The others rejoin the broker's ISR as soon as it
     * is unfenced and only its own partitions catch up under the throttle: its gate ratio starts high and falls as
     * they rejoin one by one, smallest first. (With the backlog over every partition, the ratio over its preferred ones
     * depended on which partitions happened to be its: a run could see it below the threshold from the start.)
     */
    void writeBacklog(String topic, int broker, long totalBytes) throws Exception {
        List<Integer> own = describe(topic).stream()
                .filter(p -> p.replicas().get(0).id() == broker)
                .map(TopicPartitionInfo::partition)
                .sorted()
                .toList();
        Map<String, Object> props = Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ProducerConfig.ACKS_CONFIG, "1",
                ProducerConfig.LINGER_MS_CONFIG, "5",
                ProducerConfig.BATCH_SIZE_CONFIG, "65536");
        byte[] record = new byte[1024];
        long weights = (long) own.size() * (own.size() + 1) / 2;
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
            List<Future<?>> sends = new ArrayList<>();
            for (int k = 0; k < own.size(); k++) {
                long records = Math.max(1, totalBytes * (k + 1) / weights / record.length);
                for (long i = 0; i < records; i++) {
                    sends.add(producer.send(new ProducerRecord<>(topic, own.get(k), null, record)));
                }
            }
            producer.flush();
            for (Future<?> f : sends) {
                f.get(60, TimeUnit.SECONDS);
            }
        }
    }

    /** The live records of a compacted topic (latest value per key, tombstones removing it), read to its end. */
    Map<String, String> compactedContents(String topic) {
        Map<String, Object> props = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrap,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                "false",
                ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                "read_committed");
        Map<String, String> live = new TreeMap<>();
        try (KafkaConsumer<String, String> c =
                new KafkaConsumer<>(props, new StringDeserializer(), new StringDeserializer())) {
            TopicPartition tp = new TopicPartition(topic, 0);
            c.assign(List.of(tp));
            c.seekToBeginning(List.of(tp));
            long end = c.endOffsets(List.of(tp)).get(tp);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (c.position(tp) < end && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> r : c.poll(Duration.ofMillis(200))) {
                    if (r.value() == null) {
                        live.remove(r.key());
                    } else {
                        live.put(r.key(), r.value());
                    }
                }
            }
        }
        return live;
    }
}
