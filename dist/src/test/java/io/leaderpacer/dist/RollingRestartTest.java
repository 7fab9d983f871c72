package io.leaderpacer.dist;

import io.leaderpacer.cluster.ProcessKafkaCluster;
import io.leaderpacer.engine.config.ConfigKey;
import io.leaderpacer.engine.policy.PolicyRegistry;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.NotEnoughReplicasAfterAppendException;
import org.apache.kafka.common.errors.NotEnoughReplicasException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A rolling restart of every broker of a real cluster under {@code acks=all} produce load, driven by the documented
 * script {@code bin/pacer-rolling-restart} of the unpacked tarball, with the agent running from the same tarball under
 * {@code recommended-paced}: no write refused for want of in-sync replicas, each restart only once every other broker
 * is back in every ISR, and no replication throttle left in the cluster, neither while the agent runs nor after it
 * stops.
 *
 * <p>Why it can fail: each broker is down long enough for a backlog that pacing throttles for tens of seconds (pacing
 * throttles at once: {@code lag.time.max.ms=0}); a roller that restarts the next broker when the previous one is merely
 * up takes partitions of RF 3 and {@code min.insync.replicas=2} to one in-sync copy, and the producer, which does not
 * retry, sees {@code NOT_ENOUGH_REPLICAS}.
 *
 * <p>The brokers are processes of their own. The script's restart command stands for {@code systemctl restart
 * kafka}: it asks this test to stop the broker's process (SIGTERM: a controlled shutdown), waits while the test keeps
 * producing, and returns once the broker is started again and registered.
 */
@Tag("cluster")
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class RollingRestartTest {

    private static final String TOPIC = "orders";
    private static final int PARTITIONS = 24;
    /** Down this long under load: a backlog that pacing then throttles. */
    private static final long DOWN_MS = 8_000;

    @TempDir
    Path dir;

    private Path home;
    private ProcessKafkaCluster cluster;
    private Admin admin;
    private Process agent;

    @BeforeEach
    void start() throws Exception {
        home = UnpackedTarball.unpack(dir.resolve("install"));
        cluster = ProcessKafkaCluster.builder()
                .brokers(3)
                .brokerHeap("384m")
                .controllerHeap("256m")
                .brokerConfig("replication.quota.window.num", "2")
                .brokerConfig("replica.fetch.max.bytes", "65536")
                .baseDirectory(dir.resolve("kafka"))
                .startTimeout(Duration.ofMinutes(2))
                .build();
        cluster.start();
        admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers()));
        admin.createTopics(
                        List.of(new NewTopic(TOPIC, PARTITIONS, (short) 3).configs(Map.of("min.insync.replicas", "2"))))
                .all()
                .get(60, TimeUnit.SECONDS);
    }

    @AfterEach
    void stop() throws Exception {
        try {
            if (agent != null && agent.isAlive()) {
                agent.destroy();
                agent.waitFor(60, TimeUnit.SECONDS);
                agent.destroyForcibly();
            }
        } finally {
            if (admin != null) {
                admin.close();
            }
            if (cluster != null) {
                cluster.close();
            }
        }
    }

    @Test
    void everyBrokerRestartedInTurn_underLoad_noWriteRefused_nothingLeftBehind() throws Exception {
        Path config = writeAgentConfig();
        agent = UnpackedTarball.start(home, dir.resolve("agent.log"), "run", "--config", config.toString());
        Restarter restarter = new Restarter(dir.resolve("signals"));
        Files.createDirectories(restarter.signals);

        try (Load load = new Load(cluster.bootstrapServers())) {
            load.start();
            Thread.sleep(3_000);
            Thread roller = new Thread(restarter, "restarter");
            roller.setDaemon(true);
            roller.start();
            String restartCommand = "touch " + restarter.signals + "/restart-%s && while [ ! -e " + restarter.signals
                    + "/started-%s ]; do sleep 0.1; done";
            UnpackedTarball.Run run = UnpackedTarball.run(
                    home,
                    dir.resolve("rolling.log"),
                    TimeUnit.MINUTES.toMillis(8),
                    home.resolve("bin/pacer-rolling-restart").toString(),
                    "--config",
                    config.toString(),
                    "--brokers",
                    cluster.brokerIds().stream().map(String::valueOf).collect(Collectors.joining(" ")),
                    "--restart-command",
                    restartCommand,
                    "--recovery-timeout-ms",
                    "240000",
                    "--safe-timeout-ms",
                    "120000");
            restarter.done.set(true);
            load.stop();

            assertThat(run.status()).as(run.output()).isZero();
            assertThat(run.output()).contains("every broker restarted, the cluster recovered");
            assertThat(restarter.restarted).containsExactlyElementsOf(cluster.brokerIds());
            assertThat(restarter.unsafe)
                    .as(
                            "brokers out of an ISR when the next restart began (%s); the script's output:%n%s",
                            restarter.detail, run.output())
                    .isEmpty();
            assertThat(load.refused.get())
                    .as("acks=all writes refused for want of in-sync replicas; other failures %s", load.otherFailures)
                    .isZero();
            assertThat(load.acked.get()).isGreaterThan(1_000);
            assertThat(throttleConfigs()).as("with the agent still running").isEmpty();
            System.out.printf(
                    "rolling restart: %d acked, %d refused, other failures %s%n%s%n",
                    load.acked.get(), load.refused.get(), load.otherFailures, run.output());
        }
        agent.destroy();
        assertThat(agent.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(agent.exitValue()).isZero();
        assertThat(throttleConfigs()).as("once the agent stopped").isEmpty();
    }

    /** recommended-paced, with the schedule shortened to the test's length and pacing throttling at once. */
    private Path writeAgentConfig() throws Exception {
        Map<String, String> keys = new TreeMap<>(
                PolicyRegistry.named(PolicyRegistry.RECOMMENDED_PACED).settingsByKey(0));
        keys.put(ConfigKey.CHECK_INTERVAL_SECONDS.key(), "2");
        keys.put(ConfigKey.RECHECK_INTERVAL_MS.key(), "1000");
        keys.put(ConfigKey.CATCH_UP_LAG_TIME_MAX_MS.key(), "0");
        keys.put(ConfigKey.CATCH_UP_MIN_RATE_BYTES.key(), "65536");
        StringBuilder file = new StringBuilder("bootstrap.servers=" + cluster.bootstrapServers() + "\n");
        keys.forEach((k, v) -> file.append(k).append('=').append(v).append('\n'));
        file.append("pacer.http.enabled=false\npacer.session.timeout.ms=6000\npacer.instance.id=rolling\n");
        return Files.writeString(dir.resolve("pacer.properties"), file.toString());
    }

    /** Every replication throttle config set in the cluster: the brokers', the cluster default's, the topic's. */
    private Map<String, String> throttleConfigs() throws Exception {
        List<ConfigResource> resources = new ArrayList<>();
        resources.add(new ConfigResource(ConfigResource.Type.BROKER, ""));
        cluster.brokerIds().forEach(b -> resources.add(new ConfigResource(ConfigResource.Type.BROKER, "" + b)));
        resources.add(new ConfigResource(ConfigResource.Type.TOPIC, TOPIC));
        Map<String, String> set = new TreeMap<>();
        Map<ConfigResource, Config> configs =
                admin.describeConfigs(resources).all().get(30, TimeUnit.SECONDS);
        configs.forEach((r, c) -> c.entries().stream()
                .filter(e -> e.name().contains("throttled")
                        && e.value() != null
                        && !e.value().isEmpty())
                .filter(e -> e.source().name().startsWith("DYNAMIC"))
                .forEach(e -> set.put(r.type() + " " + r.name() + " " + e.name(), e.value())));
        return set;
    }

    /** The partitions with a replica out of their ISR now, as {@code p:replicas/isr}. */
    private String isrs() throws Exception {
        TopicDescription d = admin.describeTopics(List.of(TOPIC))
                .allTopicNames()
                .get(30, TimeUnit.SECONDS)
                .get(TOPIC);
        return d.partitions().stream()
                .filter(p -> p.isr().size() < p.replicas().size())
                .map(p -> p.partition() + ":"
                        + p.replicas().stream().map(n -> "" + n.id()).collect(Collectors.joining(",")) + "/"
                        + p.isr().stream().map(n -> "" + n.id()).collect(Collectors.joining(",")))
                .collect(Collectors.joining(" ", "[", "]"));
    }

    /** Which brokers are out of an ISR of the topic now. */
    private Set<Integer> outOfIsr() throws Exception {
        TopicDescription d = admin.describeTopics(List.of(TOPIC))
                .allTopicNames()
                .get(30, TimeUnit.SECONDS)
                .get(TOPIC);
        Set<Integer> out = new java.util.TreeSet<>();
        for (TopicPartitionInfo p : d.partitions()) {
            p.replicas().stream().filter(r -> !p.isr().contains(r)).forEach(r -> out.add(r.id()));
        }
        return out;
    }

    /** Stands in for systemd on the brokers' hosts: restarts the broker the script's restart command names. */
    private final class Restarter implements Runnable {
        final Path signals;
        final List<Integer> restarted = new CopyOnWriteArrayList<>();
        /** Per restart, the other brokers out of an ISR at its start: must stay empty. */
        final Map<Integer, Set<Integer>> unsafe = new ConcurrentHashMap<>();
        /** Per unsafe restart, which partitions, and whether they were still out a second later (for the message). */
        final Map<Integer, String> detail = new ConcurrentHashMap<>();

        final AtomicBoolean done = new AtomicBoolean();

        Restarter(Path signals) {
            this.signals = signals;
        }

        @Override
        public void run() {
            try {
                while (!done.get()) {
                    for (int b : cluster.brokerIds()) {
                        Path asked = signals.resolve("restart-" + b);
                        if (Files.exists(asked)) {
                            Files.delete(asked);
                            restart(b);
                        }
                    }
                    Thread.sleep(100);
                }
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }

        private void restart(int b) throws Exception {
            Set<Integer> behind = outOfIsr();
            behind.remove(b);
            if (!behind.isEmpty()) {
                unsafe.put(b, behind);
                String before = isrs();
                Thread.sleep(1_000);
                detail.put(b, "at the restart " + before + "; a second later " + isrs());
            }
            cluster.stop(b);
            Thread.sleep(DOWN_MS);
            cluster.start(b);
            cluster.awaitRegistered(b, Duration.ofMinutes(1));
            restarted.add(b);
            Files.createFile(signals.resolve("started-" + b));
        }
    }

    /**
     * {@code acks=all} writes of 1 KiB as fast as a producer with 5 requests in flight sends them, never retried: a
     * refusal for want of in-sync replicas shows in the callback instead of being retried away.
     */
    private static final class Load implements AutoCloseable {
        final AtomicLong acked = new AtomicLong();
        final AtomicLong refused = new AtomicLong();
        final Map<String, Long> otherFailures = new ConcurrentHashMap<>();
        private final KafkaProducer<byte[], byte[]> producer;
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final Thread thread;

        Load(String bootstrap) {
            producer = new KafkaProducer<>(Map.of(
                    ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                    bootstrap,
                    ProducerConfig.ACKS_CONFIG,
                    "all",
                    ProducerConfig.RETRIES_CONFIG,
                    0,
                    ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
                    false,
                    ProducerConfig.LINGER_MS_CONFIG,
                    5,
                    ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG,
                    ByteArraySerializer.class,
                    ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG,
                    ByteArraySerializer.class));
            thread = new Thread(this::produce, "rolling-load");
        }

        void start() {
            thread.start();
        }

        private void produce() {
            byte[] value = new byte[1024];
            long n = 0;
            while (running.get()) {
                producer.send(new ProducerRecord<>(TOPIC, (int) (n++ % PARTITIONS), null, value), (md, e) -> {
                    if (e == null) {
                        acked.incrementAndGet();
                    } else if (e instanceof NotEnoughReplicasException
                            || e instanceof NotEnoughReplicasAfterAppendException) {
                        refused.incrementAndGet();
                    } else {
                        otherFailures.merge(e.getClass().getSimpleName(), 1L, Long::sum);
                    }
                });
                if (n % 20 == 0) {
                    try {
                        Thread.sleep(20);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                }
            }
        }

        void stop() throws InterruptedException {
            running.set(false);
            thread.join(30_000);
            producer.flush();
        }

        @Override
        public void close() {
            try {
                stop();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            producer.close();
        }
    }
}
