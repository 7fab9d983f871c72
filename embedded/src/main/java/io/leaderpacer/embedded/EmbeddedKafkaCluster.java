package io.leaderpacer.embedded;

import io.leaderpacer.testbed.KeyStoreFile;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.network.ListenerName;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
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
 * <p>By default the listeners are plaintext with no authorizer (the demo, most tests). {@link
 * EmbeddedClusterBuilder#saslScramWithAcls()} secures them instead, for least-privilege tests: SCRAM users and ACLs
 * are then set through {@link #accessControl()}, see {@link SaslScramSetup} for how. {@link
 * EmbeddedClusterBuilder#tls(TlsStores)} puts the clients' listener on TLS (with SASL too: SASL_SSL), {@link
 * EmbeddedClusterBuilder#mutualTls(TlsStores)} on TLS with client certificates required and ACLs for the
 * certificates' principals; see {@link TlsSetup} and {@link ListenerMode}.
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
    /** How clients reach the cluster and who they are to it. */
    private final ListenerMode mode;
    /** The stores of a TLS cluster; null for plaintext modes. */
    private final TlsStores tls;
    /** Extra TLS listeners of every broker (name to the key store it presents), for certificate-failure tests. */
    private final Map<String, KeyStoreFile> extraListeners;

    /** The running kit; null before {@link #start()} and after {@link #close()}. */
    private KafkaClusterTestKit kit;
    /** This cluster's data directory (controller and broker logs), deleted on close. */
    private Path dataDirectory;
    /** Shared admin client for the cluster's own operations and for callers that want one. */
    private Admin admin;

    EmbeddedKafkaCluster(EmbeddedClusterBuilder b) {
        this.brokerCount = b.brokers;
        this.serverProperties = Collections.unmodifiableMap(new LinkedHashMap<>(b.serverProperties()));
        this.baseDirectory = b.baseDirectory != null ? b.baseDirectory : DataDirectories.defaultBase();
        this.quietLogs = b.quietLogs;
        this.mode = b.mode();
        this.tls = b.tlsStores;
        this.extraListeners = Collections.unmodifiableMap(new LinkedHashMap<>(b.extraListeners));
    }

    public static EmbeddedClusterBuilder builder() {
        return new EmbeddedClusterBuilder();
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
            TestKitNodes.Builder nodes = new TestKitNodes.Builder()
                    .setCombined(false)
                    .setNumControllerNodes(1)
                    .setNumBrokerNodes(brokerCount)
                    .setBaseDirectory(dataDirectory);
            if (mode.sasl()) {
                SaslScramSetup.applyTo(nodes);
            }
            if (!extraListeners.isEmpty()) {
                nodes.setPerServerProperties(TlsSetup.brokerListeners(brokerCount, extraListeners.keySet()));
            }
            KafkaClusterTestKit.Builder kb = new KafkaClusterTestKit.Builder(nodes.build());
            serverProperties.forEach(kb::setConfigProp);
            kit = kb.build();
            formatQuietly(kit);
            kit.startup();
            kit.waitForReadyBrokers();
            Properties p = new Properties();
            p.putAll(adminClientProperties());
            admin = Admin.create(p);
            waitUntil(
                    "all " + brokerCount + " brokers registered and unfenced",
                    () -> readiness().unfencedBrokers() == brokerCount);
            return this;
        } catch (Exception e) {
            closeQuietly();
            throw new EmbeddedKafkaException(
                    "could not start the embedded Kafka cluster in " + dataDirectory + ": " + e.getMessage(), e);
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

    /**
     * The address list of an extra TLS listener ({@link EmbeddedClusterBuilder#extraTlsListener}) of the running
     * brokers, as {@code 127.0.0.1:port,...}.
     */
    public String listenerBootstrapServers(String listener) {
        if (!extraListeners.containsKey(listener)) {
            throw new IllegalArgumentException(
                    "no extra listener " + listener + "; extra listeners are " + extraListeners.keySet());
        }
        List<String> addresses = new ArrayList<>();
        for (var broker : running().brokers().values()) {
            if (!broker.isShutdown()) {
                addresses.add("127.0.0.1:" + broker.boundPort(new ListenerName(listener)));
            }
        }
        return String.join(",", addresses);
    }

    /**
     * Properties for a client with every right: the bootstrap servers and, on a secured cluster, the super user's
     * settings (SASL, or its certificate under mutual TLS), on a TLS cluster with the trust store. On a plain
     * cluster, just the bootstrap servers.
     */
    public Map<String, String> adminClientProperties() {
        Map<String, String> p = new LinkedHashMap<>();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        if (mode.sasl()) {
            p.putAll(SaslScramSetup.superUserClientProperties());
        }
        p.putAll(TlsSetup.superUserClientProperties(mode, tls));
        return p;
    }

    /**
     * Properties for a client of a TLS cluster that trusts its CA, with hostname verification on: bootstrap
     * servers, {@code security.protocol} and the trust store; no identity (no SASL settings, no key store): a test
     * adds the identity it is about.
     *
     * @throws IllegalStateException on a cluster without TLS
     */
    public Map<String, String> tlsClientProperties() {
        if (!mode.tls()) {
            throw new IllegalStateException(
                    "the cluster has no TLS listener: build it with tls(...) or mutualTls(...)");
        }
        Map<String, String> p = new LinkedHashMap<>();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        p.putAll(TlsSetup.trustingClientProperties(mode, tls));
        return p;
    }

    /**
     * Properties for a client authenticating as an ordinary SCRAM-SHA-512 user (see {@link #accessControl()}):
     * bootstrap servers, {@code security.protocol}, {@code sasl.mechanism}, {@code sasl.jaas.config}.
     *
     * @throws IllegalStateException on a cluster built without {@link EmbeddedClusterBuilder#saslScramWithAcls()}
     */
    public Map<String, String> scramClientProperties(String user, String password) {
        if (!mode.sasl()) {
            throw new IllegalStateException(
                    "the cluster has no SASL listeners or ACLs: build it with saslScramWithAcls()");
        }
        Map<String, String> p = new LinkedHashMap<>();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        p.putAll(SaslScramSetup.scramClientProperties(user, password));
        if (mode.tls()) {
            p.putAll(TlsSetup.trustingClientProperties(mode, tls));
        }
        return p;
    }

    /**
     * SCRAM users and ACLs, changed as the super user; each change returns once every running node applies it.
     *
     * @throws IllegalStateException on a cluster built without {@link EmbeddedClusterBuilder#saslScramWithAcls()}
     */
    public AccessControl accessControl() {
        requireSecured();
        return new AccessControl(admin(), running(), WAIT_LIMIT);
    }

    /** Whether clients must authenticate and are authorized by ACLs. */
    public boolean isSecured() {
        return mode.hasAuthorizer();
    }

    /** How clients reach the cluster. */
    public ListenerMode listenerMode() {
        return mode;
    }

    private void requireSecured() {
        if (!mode.hasAuthorizer()) {
            throw new IllegalStateException(
                    "the cluster has no SASL listeners or ACLs: build it with saslScramWithAcls()"
                            + " or mutualTls(...)");
        }
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
                    .all()
                    .get(WAIT_LIMIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof TopicExistsException) {
                throw new EmbeddedKafkaException("topic '" + topic + "' already exists", e.getCause());
            }
            throw new EmbeddedKafkaException("could not create topic '" + topic + "': " + e.getCause(), e.getCause());
        } catch (Exception e) {
            throw new EmbeddedKafkaException("could not create topic '" + topic + "': " + e, e);
        }
        waitUntil(
                "topic '" + topic + "' has " + partitions + " partitions with a leader and a full ISR",
                () -> readiness().fullyReplicated(topic, partitions, replicationFactor));
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
        waitUntil(
                "broker " + brokerId + " registered and unfenced after restart",
                () -> readiness().isUnfenced(brokerId));
    }

    /**
     * Whether the controller shows the broker fenced (or not registered): after {@link #killBroker} that happens only
     * once its session times out, as after a crash. False while the cluster does not answer.
     */
    public boolean isFenced(int brokerId) {
        return readiness().isFenced(checkBroker(brokerId));
    }

    /** Whether the broker's server is up (not stopped by {@link #stopBroker}/{@link #killBroker}). */
    public boolean isRunning(int brokerId) {
        return !running().brokers().get(checkBroker(brokerId)).isShutdown();
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

    private ClusterReadiness readiness() {
        return new ClusterReadiness(admin());
    }

    private static void waitUntil(String what, BooleanSupplier condition) {
        BoundedWait.until(what, WAIT_LIMIT, condition);
    }
}
