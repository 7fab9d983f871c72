package io.leaderpacer.cluster;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * One cluster of 1 controller and 3 broker processes for the whole class (a start costs ~12 s on a small machine):
 * start, kill and restart, controlled stop and restart, close. The tests run in order and each leaves every broker
 * up for the next. Timings are printed so that docs/CLUSTER.md can quote measured figures.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Tag("cluster")
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class ProcessKafkaClusterTest {

    private static final String TOPIC = "process-cluster-test";
    private static final int PARTITIONS = 6;

    private ProcessKafkaCluster cluster;
    private Admin admin;

    @BeforeAll
    void startCluster() {
        cluster = ProcessKafkaCluster.builder().brokers(3).brokerHeap("384m").build();
        long t0 = System.nanoTime();
        cluster.start();
        report("cluster start (format + 1 controller + 3 brokers unfenced)", t0);
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers());
        admin = Admin.create(p);
    }

    @AfterAll
    void closeCluster() {
        if (admin != null) {
            admin.close(Duration.ofSeconds(2));
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    @Order(1)
    void start_everyBrokerUnfencedOnLoopbackWithItsOwnProcessAndLog() throws Exception {
        assertThat(cluster.brokerIds()).containsExactly(0, 1, 2);
        assertThat(cluster.bootstrapServers().split(",")).hasSize(3).allMatch(s -> s.startsWith("127.0.0.1:"));
        assertThat(fencing()).containsExactlyInAnyOrderEntriesOf(Map.of(0, false, 1, false, 2, false));
        Set<Long> pids = cluster.brokerIds().stream().map(cluster::pid).collect(Collectors.toSet());
        assertThat(pids).hasSize(3).doesNotContain(ProcessHandle.current().pid());
        for (int id : List.of(0, 1, 2, cluster.controllerId())) {
            assertThat(cluster.isRunning(id)).isTrue();
            assertThat(Files.readString(cluster.logFile(id))).contains("Kafka Server started");
        }
        System.out.println("[figures] RSS after start (MiB): "
                + cluster.brokerIds().stream().collect(Collectors.toMap(id -> id, id -> rssMib(cluster.pid(id))))
                + ", controller "
                + rssMib(cluster.pid(cluster.controllerId())));
    }

    @Test
    @Order(2)
    void killedBroker_isFencedAndLeavesTheIsr_thenReturnsAfterRestart() throws Exception {
        admin.createTopics(List.of(new NewTopic(TOPIC, PARTITIONS, (short) 3)))
                .all()
                .get(30, TimeUnit.SECONDS);
        await().atMost(Duration.ofSeconds(30))
                .ignoreExceptions()
                .until(() -> isr().values().stream().allMatch(isr -> isr.size() == 3));
        produce(100);

        long pid = cluster.pid(1);
        long t0 = System.nanoTime();
        cluster.kill(1);
        assertThat(cluster.isRunning(1)).isFalse();
        assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false))
                .isFalse();
        assertThatThrownBy(() -> cluster.pid(1))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("broker 1 is not running: it exited with status 137")
                .hasMessageContaining("last lines of " + cluster.logFile(1));
        await().atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> Boolean.TRUE.equals(fencing().get(1)));
        report("kill -9 broker 1 -> fenced", t0);
        await().atMost(Duration.ofSeconds(20))
                .ignoreExceptions()
                .until(() -> isr().values().stream().noneMatch(isr -> isr.contains(1)));
        produce(100);

        t0 = System.nanoTime();
        cluster.start(1);
        assertThat(cluster.pid(1)).isNotEqualTo(pid);
        cluster.awaitRegistered(1, Duration.ofSeconds(60));
        report("restart broker 1 -> registered", t0);
        cluster.awaitUnfenced(1, Duration.ofSeconds(60));
        report("restart broker 1 -> unfenced", t0);
        assertThat(fencing().get(1)).isFalse();
        await().atMost(Duration.ofSeconds(60))
                .ignoreExceptions()
                .until(() -> isr().values().stream().allMatch(isr -> isr.contains(1)));
        report("restart broker 1 -> back in every ISR", t0);
    }

    @Test
    @Order(3)
    void stoppedBroker_handsOverLeadershipAndExits_thenReturnsAfterRestart_withStaticSettingsForThatRun()
            throws Exception {
        long t0 = System.nanoTime();
        cluster.stop(2);
        report("SIGTERM broker 2 -> exited (controlled shutdown)", t0);
        assertThat(cluster.isRunning(2)).isFalse();
        assertThat(leaders()).doesNotContain(2);
        assertThatThrownBy(() -> cluster.stop(2)).isInstanceOf(IllegalStateException.class);

        assertThatThrownBy(() -> cluster.start(2, Map.of("node.id", "9")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("node.id is set by the cluster itself");
        t0 = System.nanoTime();
        cluster.start(2, Map.of("replica.fetch.max.bytes", "262144"));
        cluster.awaitUnfenced(2, Duration.ofSeconds(60));
        report("restart broker 2 after controlled shutdown -> unfenced", t0);
        ConfigResource b2 = new ConfigResource(ConfigResource.Type.BROKER, "2");
        ConfigEntry fetch = admin.describeConfigs(List.of(b2))
                .all()
                .get(30, TimeUnit.SECONDS)
                .get(b2)
                .get("replica.fetch.max.bytes");
        assertThat(fetch.value()).as("the static setting of this run").isEqualTo("262144");
        assertThat(fetch.source()).isEqualTo(ConfigEntry.ConfigSource.STATIC_BROKER_CONFIG);
        await().atMost(Duration.ofSeconds(60))
                .ignoreExceptions()
                .until(() -> isr().values().stream().allMatch(isr -> isr.contains(2)));
        produce(10);
    }

    @Test
    @Order(4)
    void close_stopsEveryRecordedProcessAndDeletesTheDirectory() {
        List<Long> pids = cluster.startedPids();
        Path base = cluster.baseDirectory();
        assertThat(pids).hasSizeGreaterThanOrEqualTo(4 + 4 + 2); // 4 formats, 4 servers, 2 restarts
        assertThat(base).isDirectory();
        admin.close(Duration.ofSeconds(2));
        admin = null;

        long t0 = System.nanoTime();
        cluster.close();
        report("close (SIGTERM brokers, then controller)", t0);

        assertThat(pids)
                .allSatisfy(pid -> assertThat(ProcessHandle.of(pid)
                                .map(ProcessHandle::isAlive)
                                .orElse(false))
                        .as("process %d is alive", pid)
                        .isFalse());
        assertThat(base).doesNotExist();
        cluster.close();
        assertThatThrownBy(() -> cluster.pid(0)).isInstanceOf(IllegalStateException.class);
    }

    private Map<Integer, Boolean> fencing() throws Exception {
        Map<Integer, Boolean> f = new HashMap<>();
        for (Node n : admin.describeCluster(new DescribeClusterOptions().includeFencedBrokers(true))
                .nodes()
                .get(10, TimeUnit.SECONDS)) {
            f.put(n.id(), n.isFenced());
        }
        return f;
    }

    private Map<Integer, List<Integer>> isr() throws Exception {
        TopicDescription d = admin.describeTopics(List.of(TOPIC))
                .allTopicNames()
                .get(10, TimeUnit.SECONDS)
                .get(TOPIC);
        return d.partitions().stream()
                .collect(Collectors.toMap(
                        TopicPartitionInfo::partition,
                        p -> p.isr().stream().map(Node::id).toList()));
    }

    private List<Integer> leaders() throws Exception {
        TopicDescription d = admin.describeTopics(List.of(TOPIC))
                .allTopicNames()
                .get(10, TimeUnit.SECONDS)
                .get(TOPIC);
        return d.partitions().stream()
                .map(p -> p.leader() == null ? -1 : p.leader().id())
                .toList();
    }

    private void produce(int records) throws Exception {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers());
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000");
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "30000");
        try (KafkaProducer<String, String> producer =
                new KafkaProducer<>(p, new StringSerializer(), new StringSerializer())) {
            for (int i = 0; i < records; i++) {
                producer.send(new ProducerRecord<>(TOPIC, i % PARTITIONS, "k" + i, "v" + i))
                        .get(30, TimeUnit.SECONDS);
            }
        }
    }

    static long rssMib(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("\\D+", "")) / 1024;
                }
            }
        } catch (Exception e) {
            return -1;
        }
        return -1;
    }

    static void report(String what, long startNanos) {
        System.out.printf("[figures] %s: %.2f s%n", what, (System.nanoTime() - startNanos) / 1e9);
    }
}
