package io.leaderpacer.embedded;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * A real KRaft Kafka cluster (one controller, N brokers) running inside this JVM, on Kafka's own server code.
 *
 * <p>Why: the agent must be tested, and demonstrated, against real brokers and a real controller, with
 * nothing installed. This is the only class that touches Kafka's internal test kit; its own API stays small
 * and stable. It applies the settings the kit needs to behave (see the field notes in the project docs):
 * a separate controller (combined mode loses its quorum), data on tmpfs (index zeroing on a disk is slow),
 * {@code broker.session.timeout.ms=3000} so a stopped broker can register again within seconds, and
 * {@code auto.leader.rebalance.enable=false} unless asked otherwise, because the agent replaces that task.
 *
 * <p>Broker ids are {@code 0 .. brokers-1}; a stopped broker restarts on the same port with the same data.
 * Not thread-safe for concurrent lifecycle calls (start/stop/restart); read-only calls may come from any thread.
 */
public final class EmbeddedKafkaCluster implements AutoCloseable {

    /** Bound on every wait this class does (the machine may be loaded). */
    private static final Duration WAIT_LIMIT = Duration.ofSeconds(90);

    /** Number of brokers, fixed at build time. */
    private final int brokerCount;
    /** Every server property passed to the kit, defaults merged with the caller's. */
    private final Map<String, String> serverProperties;
    /** Parent directory under which this cluster creates its own data directory. */
    private final Path baseDirectory;
    /** Whether Kafka's own logging is turned down to warnings when the cluster starts. */
    private final boolean quietLogs;

    /** The running kit; null before {@link #start()} and after {@link #close()}. */
    private KafkaClusterTestKit kit;
    /** This cluster's data directory (controller and broker logs), deleted on close. */
    private Path dataDirectory;
    /** Shared admin client for the cluster's own operations and for callers that want one. */
    private Admin admin;

    private EmbeddedKafkaCluster(Builder b) {
        this.brokerCount = b.brokers;
        this.serverProperties = Collections.unmodifiableMap(new LinkedHashMap<>(b.serverProperties()));
        this.baseDirectory = b.baseDirectory != null ? b.baseDirectory : DataDirectories.defaultBase();
        this.quietLogs = b.quietLogs;
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * Formats storage, starts the controller and all brokers and waits until every broker is ready.
     *
     * @return this cluster, for chaining
     * @throws EmbeddedKafkaException when the cluster cannot start (the partial cluster is closed)
     */
    public synchronized EmbeddedKafkaCluster start() {
        if (kit != null) {
            throw new IllegalStateException("cluster already started");
        }
        if (quietLogs) {
            KafkaServerLogging.quiet();
        }
        try {
            dataDirectory = Files.createTempDirectory(baseDirectory, "leader-pacer-kafka-");
            TestKitNodes nodes = new TestKitNodes.Builder()
                    .setCombined(false)
                    .setNumControllerNodes(1)
                    .setNumBrokerNodes(brokerCount)
                    .setBaseDirectory(dataDirectory)
                    .build();
            KafkaClusterTestKit.Builder kb = new KafkaClusterTestKit.Builder(nodes);
            serverProperties.forEach(kb::setConfigProp);
            kit = kb.build();
            formatQuietly(kit);
            kit.startup();
            kit.waitForReadyBrokers();
            Properties p = new Properties();
            p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kit.bootstrapServers());
            admin = Admin.create(p);
            waitUntil("all " + brokerCount + " brokers registered and unfenced", () -> unfencedBrokers() == brokerCount);
            return this;
        } catch (Exception e) {
            closeQuietly();
            throw new EmbeddedKafkaException("could not start the embedded Kafka cluster in " + dataDirectory
                    + ": " + e.getMessage(), e);
        }
    }

    /**
     * Formats the nodes' storage. Kafka's formatter prints its bootstrap metadata to standard output, which would
     * land in the middle of the demo's output; it is captured and shown only if formatting fails. Standard output
     * is swapped only for the duration of the call, before any node (or load) is running.
     */
    private static void formatQuietly(KafkaClusterTestKit kit) throws Exception {
        PrintStream original = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            kit.format();
        } catch (Exception e) {
            original.print(captured.toString(StandardCharsets.UTF_8));
            throw e;
        } finally {
            System.setOut(original);
        }
    }

    /** The brokers' bootstrap address list, for any Kafka client. */
    public String bootstrapServers() {
        return running().bootstrapServers();
    }

    /** How many brokers the cluster has (running or stopped). */
    public int brokerCount() {
        return brokerCount;
    }

    /** Broker ids, ascending. */
    public List<Integer> brokerIds() {
        List<Integer> ids = new ArrayList<>(running().brokers().keySet());
        Collections.sort(ids);
        return ids;
    }

    /** The server properties every node got (defaults merged with the builder's). */
    public Map<String, String> serverProperties() {
        return serverProperties;
    }

    /** The cluster's data directory (deleted on close). */
    public Path dataDirectory() {
        return dataDirectory;
    }

    /**
     * An admin client owned by the cluster (closed by {@link #close()}); callers must not close it.
     */
    public Admin admin() {
        running();
        return admin;
    }

    /**
     * Creates a topic and waits until every partition has a leader and a full ISR.
     *
     * @throws EmbeddedKafkaException when the topic exists already or does not become ready in time
     */
    public void createTopic(String topic, int partitions, int replicationFactor) {
        createTopic(topic, partitions, replicationFactor, Map.of());
    }

    /** As {@link #createTopic(String, int, int)}, with topic configs (e.g. {@code cleanup.policy=compact}). */
    public void createTopic(String topic, int partitions, int replicationFactor, Map<String, String> configs) {
        try {
            admin().createTopics(List.of(new NewTopic(topic, partitions, (short) replicationFactor).configs(configs)))
                    .all().get(WAIT_LIMIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof TopicExistsException) {
                throw new EmbeddedKafkaException("topic '" + topic + "' already exists", e.getCause());
            }
            throw new EmbeddedKafkaException("could not create topic '" + topic + "': " + e.getCause(), e.getCause());
        } catch (Exception e) {
            throw new EmbeddedKafkaException("could not create topic '" + topic + "': " + e, e);
        }
        waitUntil("topic '" + topic + "' has " + partitions + " partitions with a leader and a full ISR",
                () -> fullyReplicated(topic, partitions, replicationFactor));
    }

    /**
     * Stops a broker with a controlled shutdown, as an operator's rolling restart does; returns once it is
     * down (its leadership and ISR memberships are then off it). Its data stays for {@link #startBroker(int)}.
     */
    public void stopBroker(int brokerId) {
        running().brokers().get(checkBroker(brokerId)).shutdown();
        running().brokers().get(brokerId).awaitShutdown();
    }

    /**
     * Stops a broker abruptly: it asks for a controlled shutdown but does not wait for the controller to move
     * its leadership, so the controller notices the loss only through the missed heartbeats, as after a crash.
     * In-JVM brokers cannot be killed with a signal; this is the nearest equivalent.
     */
    public void killBroker(int brokerId) {
        running().brokers().get(checkBroker(brokerId)).shutdown(Duration.ZERO);
        running().brokers().get(brokerId).awaitShutdown();
    }

    /**
     * Restarts a stopped broker on the same port with the same data, and waits until the controller lists it
     * as registered and unfenced. Its partitions then re-enter their ISRs at their own pace.
     */
    public void startBroker(int brokerId) {
        var broker = running().brokers().get(checkBroker(brokerId));
        if (!broker.isShutdown()) {
            throw new IllegalStateException("broker " + brokerId + " is running; stop it first");
        }
        try {
            broker.startup();
        } catch (RuntimeException e) {
            throw new EmbeddedKafkaException("could not restart broker " + brokerId + ": " + e.getMessage(), e);
        }
        waitUntil("broker " + brokerId + " registered and unfenced after restart", () -> isUnfenced(brokerId));
    }

    /** Whether the broker's server is up (not stopped by {@link #stopBroker}/{@link #killBroker}). */
    public boolean isRunning(int brokerId) {
        return !running().brokers().get(checkBroker(brokerId)).isShutdown();
    }

    /**
     * Limits how fast a broker, as a follower, fetches the given topics' partitions: Kafka's replication
     * throttle ({@code follower.replication.throttled.rate} on that broker, {@code
     * follower.replication.throttled.replicas=*} on the topics). Used to make a restarted broker's partitions
     * re-enter their ISRs over tens of seconds instead of at once.
     *
     * <p>Call it while the broker runs (before {@link #stopBroker(int)}): the broker-level change is routed to
     * that broker.
     */
    public void setFollowerThrottle(int brokerId, long bytesPerSecond, String... topics) {
        checkBroker(brokerId);
        FollowerThrottle throttle = new FollowerThrottle(admin(), WAIT_LIMIT);
        throttle.set(brokerId, bytesPerSecond, topics);
        waitUntil("the follower throttle of broker " + brokerId + " is in effect",
                () -> throttle.isSet(brokerId, bytesPerSecond, topics));
    }

    /** Removes what {@link #setFollowerThrottle} set, for that broker and those topics. */
    public void clearFollowerThrottle(int brokerId, String... topics) {
        checkBroker(brokerId);
        FollowerThrottle throttle = new FollowerThrottle(admin(), WAIT_LIMIT);
        throttle.clear(brokerId, topics);
        waitUntil("the follower throttle of broker " + brokerId + " is cleared", () -> throttle.isCleared(brokerId, topics));
    }

    /** Stops every node and deletes the data directory. Safe to call twice. */
    @Override
    public synchronized void close() {
        closeQuietly();
    }

    private void closeQuietly() {
        if (admin != null) {
            admin.close(Duration.ofSeconds(5));
            admin = null;
        }
        if (kit != null) {
            try {
                kit.close();
            } catch (Exception e) {
                // The nodes are going away either way; nothing a caller could do with the error.
            }
            kit = null;
        }
        if (dataDirectory != null) {
            DataDirectories.deleteRecursively(dataDirectory);
            dataDirectory = null;
        }
    }

    private KafkaClusterTestKit running() {
        KafkaClusterTestKit k = kit;
        if (k == null) {
            throw new IllegalStateException("embedded Kafka cluster is not running (call start())");
        }
        return k;
    }

    private int checkBroker(int brokerId) {
        if (!running().brokers().containsKey(brokerId)) {
            throw new IllegalArgumentException("no broker " + brokerId + "; brokers are " + brokerIds());
        }
        return brokerId;
    }

    private int unfencedBrokers() {
        try {
            Collection<Node> nodes = admin.describeCluster(new DescribeClusterOptions().includeFencedBrokers(true)
                    .timeoutMs(5000)).nodes().get();
            return (int) nodes.stream().filter(n -> !n.isFenced()).count();
        } catch (Exception e) {
            return -1;
        }
    }

    private boolean isUnfenced(int brokerId) {
        try {
            return admin.describeCluster(new DescribeClusterOptions().includeFencedBrokers(true).timeoutMs(5000))
                    .nodes().get().stream().anyMatch(n -> n.id() == brokerId && !n.isFenced());
        } catch (Exception e) {
            return false;
        }
    }

    private boolean fullyReplicated(String topic, int partitions, int replicationFactor) {
        try {
            TopicDescription d = admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic);
            if (d.partitions().size() != partitions) {
                return false;
            }
            for (TopicPartitionInfo p : d.partitions()) {
                if (p.leader() == null || p.leader().isEmpty() || p.isr().size() < replicationFactor) {
                    return false;
                }
            }
            return true;
        } catch (Exception e) {
            // Right after creation the topic may not be known to the broker answering yet: poll again.
            return false;
        }
    }

    private static void waitUntil(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + WAIT_LIMIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new EmbeddedKafkaException("timed out after " + WAIT_LIMIT.toSeconds() + " s waiting until " + what);
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new EmbeddedKafkaException("interrupted while waiting until " + what, e);
            }
        }
    }

    /** Settings for an {@link EmbeddedKafkaCluster}; every one has a default that suits tests and the demo. */
    public static final class Builder {
        /** Number of brokers (ids 0..n-1). */
        private int brokers = 3;
        /** Whether the controller runs Kafka's own preferred-leader task (the agent wants it off). */
        private boolean autoLeaderRebalance = false;
        /** Extra server properties, applied last (they win over the defaults). */
        private final Map<String, String> extra = new LinkedHashMap<>();
        /** Where to create the data directory; null = tmpfs when available. */
        private Path baseDirectory;
        /** Whether to turn Kafka's server logging down to warnings. */
        private boolean quietLogs = true;

        private Builder() {
        }

        /** Number of brokers, 1 or more (default 3). */
        public Builder brokers(int count) {
            if (count < 1) {
                throw new IllegalArgumentException("brokers must be >= 1, was " + count);
            }
            this.brokers = count;
            return this;
        }

        /** Kafka's {@code auto.leader.rebalance.enable} (default false: the agent does that job). */
        public Builder autoLeaderRebalance(boolean enabled) {
            this.autoLeaderRebalance = enabled;
            return this;
        }

        /** Any server property for every node (controller and brokers); wins over the defaults. */
        public Builder serverProperty(String key, String value) {
            extra.put(key, value);
            return this;
        }

        /** Parent directory of the data directory (default: /dev/shm when writable, else java.io.tmpdir). */
        public Builder baseDirectory(Path directory) {
            this.baseDirectory = directory;
            return this;
        }

        /** Whether to turn Kafka's server logs down to warnings (default true). */
        public Builder quietLogs(boolean quiet) {
            this.quietLogs = quiet;
            return this;
        }

        /** An unstarted cluster; call {@link EmbeddedKafkaCluster#start()}. */
        public EmbeddedKafkaCluster build() {
            return new EmbeddedKafkaCluster(this);
        }

        private Map<String, String> serverProperties() {
            String rf = Integer.toString(Math.min(3, brokers));
            Map<String, String> p = new LinkedHashMap<>();
            p.put("auto.leader.rebalance.enable", Boolean.toString(autoLeaderRebalance));
            // A restarted broker must be able to register again quickly (duplicate registration until expiry).
            p.put("broker.session.timeout.ms", "3000");
            p.put("broker.heartbeat.interval.ms", "500");
            p.put("offsets.topic.replication.factor", rf);
            p.put("offsets.topic.num.partitions", "5");
            p.put("transaction.state.log.replication.factor", rf);
            p.put("transaction.state.log.min.isr", "1");
            p.put("group.initial.rebalance.delay.ms", "0");
            // Fewer threads: the machine is small and several clusters may run in one test JVM over time.
            p.put("num.network.threads", "2");
            p.put("num.io.threads", "4");
            p.put("background.threads", "2");
            p.put("log.cleaner.threads", "1");
            p.put("num.recovery.threads.per.data.dir", "1");
            p.putAll(extra);
            return p;
        }
    }
}
