package io.leaderpacer.agent;

import io.leaderpacer.agent.throttle.BrokerScope;
import io.leaderpacer.agent.throttle.ReplicationThrottles;
import io.leaderpacer.agent.throttle.ThrottleChange;
import io.leaderpacer.agent.throttle.ThrottleSettings;
import io.leaderpacer.agent.throttle.ThrottledReplicas;
import io.leaderpacer.embedded.EmbeddedKafkaCluster;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.ElectionType;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.Future;

import static io.leaderpacer.agent.throttle.ThrottleSide.FOLLOWER;
import static io.leaderpacer.agent.throttle.ThrottleSide.LEADER;
import static org.awaitility.Awaitility.await;

/**
 * Test support: the moves of a broker-recovery test on a real embedded cluster.
 *
 * <p>Why: the agent's scenario tests all need the same steps: write a backlog while a broker is down, so that its
 * partitions re-enter the ISR one by one after it restarts (uneven partition sizes plus a follower throttle
 * stagger them), read who leads what, and put the cluster back to a balanced state between tests.
 */
public final class RecoveryScenario {

    /** Bound of each throttle call and of the wait until the brokers report a throttle change. */
    private static final Duration THROTTLE_WAIT = Duration.ofSeconds(90);

    private RecoveryScenario() {}

    /**
     * Writes about {@code totalBytes} to the topic, unevenly: partition i gets a share proportional to i+1, so that
     * a restarted follower catches up on the small ones first.
     */
    public static void writeBacklog(EmbeddedKafkaCluster cluster, String topic, int partitions, long totalBytes)
            throws Exception {
        writeBacklog(cluster, topic, partitions, totalBytes, "1");
    }

    /** As {@link #writeBacklog(EmbeddedKafkaCluster, String, int, long)}, with these {@code acks}. */
    public static void writeBacklog(
            EmbeddedKafkaCluster cluster, String topic, int partitions, long totalBytes, String acks) throws Exception {
        // The cluster's own client settings: on a TLS or secured cluster they carry its trust store and super user.
        Map<String, Object> props = new HashMap<>(cluster.adminClientProperties());
        props.put(ProducerConfig.ACKS_CONFIG, acks);
        props.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        props.put(ProducerConfig.BATCH_SIZE_CONFIG, "65536");
        byte[] record = new byte[1024];
        long weights = (long) partitions * (partitions + 1) / 2;
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
            List<Future<?>> sends = new ArrayList<>();
            for (int p = 0; p < partitions; p++) {
                long records = Math.max(1, totalBytes * (p + 1) / weights / record.length);
                for (long i = 0; i < records; i++) {
                    sends.add(producer.send(new ProducerRecord<>(topic, p, null, record)));
                }
            }
            producer.flush();
            for (Future<?> f : sends) {
                f.get();
            }
        }
    }

    /** Writes about {@code totalBytes} to the topic's {@code partitions}, evenly, with {@code acks=all}. */
    public static void writeInto(EmbeddedKafkaCluster cluster, String topic, List<Integer> partitions, long totalBytes)
            throws Exception {
        Map<String, Object> props = new HashMap<>(cluster.adminClientProperties());
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        props.put(ProducerConfig.BATCH_SIZE_CONFIG, "65536");
        byte[] record = new byte[1024];
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
            List<Future<?>> sends = new ArrayList<>();
            for (long i = 0; i < totalBytes / record.length; i++) {
                int p = partitions.get((int) (i % partitions.size()));
                sends.add(producer.send(new ProducerRecord<>(topic, p, null, record)));
            }
            producer.flush();
            for (Future<?> f : sends) {
                f.get();
            }
        }
    }

    /** Creates a topic with explicit replica assignments (partition index -> replicas, first = preferred). */
    public static void createAssignedTopic(
            EmbeddedKafkaCluster cluster, String topic, Map<Integer, List<Integer>> assignment) throws Exception {
        cluster.admin()
                .createTopics(List.of(new NewTopic(topic, assignment)))
                .all()
                .get();
        await().atMost(Duration.ofSeconds(60)).until(() -> {
            try {
                return describe(cluster.admin(), topic).stream()
                        .allMatch(p -> p.leader() != null
                                && p.isr().size() == p.replicas().size());
            } catch (Exception e) {
                return false;
            }
        });
    }

    public static List<TopicPartitionInfo> describe(Admin admin, String topic) throws Exception {
        TopicDescription d =
                admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic);
        return d.partitions();
    }

    /** Partitions of the topic whose ISR does not hold the broker. */
    public static int outOfSync(Admin admin, String topic, int broker) throws Exception {
        return (int) describe(admin, topic).stream()
                .filter(p -> p.isr().stream().noneMatch(r -> r.id() == broker))
                .count();
    }

    /** A 3-broker {@link #pacedCluster(int)}. */
    public static EmbeddedKafkaCluster pacedCluster() {
        return pacedCluster(3);
    }

    /**
     * A cluster for pacing's process tests: small follower fetches and a short quota window, so that a
     * replication throttle spreads a catch-up over seconds, and a small transaction log (the agents' state writer).
     * The caller closes it.
     */
    public static EmbeddedKafkaCluster pacedCluster(int brokers) {
        return EmbeddedKafkaCluster.builder()
                .brokers(brokers)
                .serverProperty("transaction.state.log.num.partitions", "3")
                .serverProperty("replica.fetch.max.bytes", "16384")
                .serverProperty("replica.fetch.response.max.bytes", "65536")
                .serverProperty("replication.quota.window.num", "2")
                .build()
                .start();
    }

    /** Partitions of the topic whose first replica is the broker. */
    public static long preferredBy(Admin admin, String topic, int broker) throws Exception {
        return describe(admin, topic).stream()
                .filter(p -> p.replicas().get(0).id() == broker)
                .count();
    }

    /** Partitions of the topic whose first replica is the broker and that it leads. */
    public static long ledAsPreferred(Admin admin, String topic, int broker) throws Exception {
        return describe(admin, topic).stream()
                .filter(p -> p.replicas().get(0).id() == broker
                        && p.leader() != null
                        && p.leader().id() == broker)
                .count();
    }

    /** Whether every partition of every listed topic is led by its first replica. */
    static boolean balanced(Admin admin, String... topics) throws Exception {
        for (String t : topics) {
            for (TopicPartitionInfo p : describe(admin, t)) {
                if (p.leader() == null || p.leader().id() != p.replicas().get(0).id()) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * Limits how fast a broker, as a follower, fetches the topics' partitions: Kafka's follower replication throttle
     * (the rate on that broker, every replica of the topics listed), set in one request; returns once the broker and
     * the topics report it. Used to make a restarted broker's partitions re-enter their ISRs over tens of seconds
     * instead of at once.
     *
     * <p>Call it while the broker runs (before stopping it): the broker-level change is routed to that broker.
     */
    public static void setFollowerThrottle(
            EmbeddedKafkaCluster cluster, int broker, long bytesPerSecond, String... topics) {
        ReplicationThrottles throttles = new ReplicationThrottles(cluster.admin(), THROTTLE_WAIT);
        BrokerScope scope = BrokerScope.broker(broker);
        ThrottleChange change = throttles.change().setRate(FOLLOWER, scope, bytesPerSecond);
        for (String topic : topics) {
            change.setReplicas(FOLLOWER, topic, ThrottledReplicas.ALL);
        }
        run("set the follower throttle of broker " + broker, () -> {
            change.apply();
            return null;
        });
        awaitThrottle("the follower throttle of broker " + broker + " is in effect", () -> {
            ThrottleSettings now = throttles.describe(List.of(scope), List.of(topics));
            return now.rate(FOLLOWER, scope)
                            .filter(r -> r.bytesPerSecond() == bytesPerSecond)
                            .isPresent()
                    && List.of(topics).stream()
                            .allMatch(t -> now.replicas(FOLLOWER, t)
                                    .filter(ThrottledReplicas::all)
                                    .isPresent());
        });
    }

    /** Removes what {@link #setFollowerThrottle} set, for that broker and those topics; returns once none of it is reported. */
    public static void clearFollowerThrottle(EmbeddedKafkaCluster cluster, int broker, String... topics) {
        ReplicationThrottles throttles = new ReplicationThrottles(cluster.admin(), THROTTLE_WAIT);
        BrokerScope scope = BrokerScope.broker(broker);
        ThrottleChange change = throttles.change().removeRate(FOLLOWER, scope);
        for (String topic : topics) {
            change.clearReplicas(FOLLOWER, topic);
        }
        run("clear the follower throttle of broker " + broker, () -> {
            change.apply();
            return null;
        });
        awaitThrottle("the follower throttle of broker " + broker + " is cleared", () -> {
            ThrottleSettings now = throttles.describe(List.of(scope), List.of(topics));
            return now.rate(FOLLOWER, scope).isEmpty()
                    && List.of(topics).stream()
                            .allMatch(t -> now.replicas(FOLLOWER, t).isEmpty());
        });
    }

    /**
     * Kafka's leader replication throttle: the rate on each of {@code leaders}, every replica of the topic listed, set
     * in one request; returns once every leader reports its own rate. Unlike a restarting follower's own throttle,
     * which it loads only after its fetchers have started (and may catch up in that moment), the leaders' throttle is
     * in force before the follower fetches anything.
     */
    public static void setLeaderThrottle(
            EmbeddedKafkaCluster cluster, List<Integer> leaders, String topic, long bytesPerSecond) {
        ReplicationThrottles throttles = new ReplicationThrottles(cluster.admin(), THROTTLE_WAIT);
        List<BrokerScope> scopes = leaders.stream().map(BrokerScope::broker).toList();
        ThrottleChange change = throttles.change();
        scopes.forEach(l -> change.setRate(LEADER, l, bytesPerSecond));
        change.setReplicas(LEADER, topic, ThrottledReplicas.ALL);
        run("set the leader throttle of brokers " + leaders, () -> {
            change.apply();
            return null;
        });
        // Each broker describes its own configuration: the rate is in force on every leader once each reports it.
        awaitThrottle("the leader throttle of brokers " + leaders + " is in effect", () -> {
            ThrottleSettings now = throttles.describe(scopes, List.of());
            return scopes.stream()
                    .allMatch(l -> now.rate(LEADER, l)
                            .filter(r -> r.isPerBroker() && r.bytesPerSecond() == bytesPerSecond)
                            .isPresent());
        });
    }

    /** Removes what {@link #setLeaderThrottle} set; returns once no leader reports a rate. */
    public static void clearLeaderThrottle(EmbeddedKafkaCluster cluster, List<Integer> leaders, String topic) {
        ReplicationThrottles throttles = new ReplicationThrottles(cluster.admin(), THROTTLE_WAIT);
        List<BrokerScope> scopes = leaders.stream().map(BrokerScope::broker).toList();
        ThrottleChange change = throttles.change();
        scopes.forEach(l -> change.removeRate(LEADER, l));
        change.clearReplicas(LEADER, topic);
        run("clear the leader throttle of brokers " + leaders, () -> {
            change.apply();
            return null;
        });
        awaitThrottle("the leader throttle of brokers " + leaders + " is cleared", () -> {
            ThrottleSettings now = throttles.describe(scopes, List.of());
            return scopes.stream().allMatch(l -> now.rate(LEADER, l).isEmpty());
        });
    }

    /** Polls until the brokers report a throttle change; a describe that fails (not answered yet) is polled again. */
    private static void awaitThrottle(String what, Callable<Boolean> condition) {
        await(what)
                .atMost(THROTTLE_WAIT)
                .pollInterval(Duration.ofMillis(50))
                .ignoreExceptions()
                .until(condition);
    }

    private static void run(String what, Callable<?> call) {
        try {
            call.call();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while trying to " + what, e);
        } catch (Exception e) {
            throw new IllegalStateException("could not " + what + ": " + e, e);
        }
    }

    /** Waits for full ISRs, then elects every preferred leader, so that the next test starts balanced. */
    public static void rebalance(EmbeddedKafkaCluster cluster, String... topics) {
        await().atMost(Duration.ofSeconds(120))
                .pollInterval(Duration.ofMillis(500))
                .until(() -> {
                    for (String t : topics) {
                        if (!describe(cluster.admin(), t).stream()
                                .allMatch(p -> p.isr().size() == p.replicas().size())) {
                            return false;
                        }
                    }
                    cluster.admin()
                            .electLeaders(ElectionType.PREFERRED, null)
                            .partitions()
                            .get();
                    return balanced(cluster.admin(), topics);
                });
    }
}
