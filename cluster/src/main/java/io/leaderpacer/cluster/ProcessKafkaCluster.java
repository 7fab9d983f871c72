package io.leaderpacer.cluster;

import io.leaderpacer.cluster.cpu.CpuQuota;
import io.leaderpacer.cluster.process.ChildProcesses;
import io.leaderpacer.cluster.process.ShutdownCleanup;
import io.leaderpacer.testbed.ServerDefaults;
import org.apache.kafka.common.Uuid;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * A real KRaft Kafka cluster, one controller and n brokers, each a separate child JVM on 127.0.0.1.
 *
 * <p>Why: a broker inside the test's own JVM cannot crash for real, cannot be slowed down alone and shares its
 * cores and heap with everything else. Here a broker can be killed with SIGKILL ({@link #kill}), stopped with
 * Kafka's controlled shutdown ({@link #stop}), started again on the same port and data ({@link #start(int)}) and
 * put under a CPU cap by PID ({@link #pid}, {@link CpuQuota}). The children run {@code kafka.Kafka} from a class
 * path (by default this JVM's own), so another Kafka version runs from its own jars without code changes.
 *
 * <p>With {@link ProcessKafkaClusterBuilder#tlsListener} every broker also serves clients over TLS (optionally
 * mutual TLS) on a second port, and the cluster's own readiness checks use that listener.
 *
 * <p>Every process is recorded and stopped by PID: on {@link #close()}, when {@link #start()} fails (nothing is
 * left half-started) and from a JVM shutdown hook. Failures name the node and end with the last lines of its log.
 *
 * <p>Thread-safety: the methods may be called from several threads; {@code close()} may run at any time (it is
 * what the shutdown hook calls) and makes a running {@code start()} fail.
 */
public final class ProcessKafkaCluster implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ProcessKafkaCluster.class);

    /** Node id of the one controller, apart from the broker ids 0..n-1. */
    public static final int CONTROLLER_ID = 3000;

    /** {@code offsets.topic.num.partitions} of every cluster this class starts: {@link ServerDefaults#OFFSETS_TOPIC_PARTITIONS}. */
    public static final int OFFSETS_TOPIC_PARTITIONS = ServerDefaults.OFFSETS_TOPIC_PARTITIONS;

    /** Pause between readiness polls. */
    private static final Duration POLL = Duration.ofMillis(100);
    /** Longest single call while polling, so that liveness and the deadline are checked often. */
    private static final Duration SLICE = Duration.ofSeconds(1);
    /** Shorter for the own-listener check, so that the log is read often meanwhile. */
    private static final Duration PROBE_SLICE = Duration.ofMillis(300);

    private enum State {
        NEW,
        STARTING,
        RUNNING,
        CLOSED
    }

    private final ClusterSettings settings;
    /** Starts the children and remembers every one of them. */
    private final ChildProcesses children;
    /** Controller first, then brokers by id; filled by {@link #start()}. */
    private final Map<Integer, KafkaNode> nodes = new LinkedHashMap<>();
    /** Guarded by this. */
    private State state = State.NEW;
    /** The nodes' parent directory, deleted on close; set by {@link #start()}. */
    private volatile Path base;
    /** Port of each broker's TLS client listener, by broker id; empty without one. Filled by {@link #start()}. */
    private final Map<Integer, Integer> tlsPorts = new LinkedHashMap<>();
    /** Each node's {@code server.properties} as the cluster made it, before any start's overrides. */
    private final Map<Integer, Map<String, String>> baseProperties = new LinkedHashMap<>();
    /** The cluster's view of its brokers; opened once brokers were started. Guarded by this. */
    private BrokerStates states;

    private ProcessKafkaCluster(ClusterSettings settings) {
        this.settings = settings;
        this.children = new ChildProcesses(settings.javaExecutable(), settings.classpath());
    }

    public static ProcessKafkaClusterBuilder builder() {
        return new ProcessKafkaClusterBuilder();
    }

    static ProcessKafkaCluster of(ClusterSettings settings) {
        return new ProcessKafkaCluster(settings);
    }

    /**
     * Formats every node, starts the controller and then the brokers, and returns once every broker is registered
     * and unfenced.
     *
     * @throws ProcessClusterException naming the node that failed to format, exited or was not ready within the
     *                                 start timeout; every process started so far is stopped and the directory
     *                                 deleted before it is thrown
     */
    public void start() {
        synchronized (this) {
            if (state != State.NEW) {
                throw new IllegalStateException("start() may be called once, on a new cluster (it is " + state + ")");
            }
            state = State.STARTING;
        }
        ShutdownCleanup.register(this);
        try {
            long t0 = System.nanoTime();
            long deadline = t0 + settings.startTimeout().toNanos();
            base = NodeLayout.prepareBase(settings);
            publish(NodeLayout.create(base, settings, CONTROLLER_ID));
            StorageFormat.formatAll(
                    List.copyOf(nodes.values()), Uuid.randomUuid().toString(), children, settings.startTimeout());
            long formatted = System.nanoTime();
            nodes.values().forEach(node -> node.start(children));
            BrokerStates view = openStates();
            awaitEveryBrokerUnfenced(view, deadline);
            synchronized (this) {
                if (state != State.STARTING) {
                    throw new ProcessClusterException("the cluster was closed while it started");
                }
                state = State.RUNNING;
            }
            LOG.info(
                    "Kafka cluster of {} brokers up at {} in {} ms ({} ms formatting), directory {}",
                    settings.brokers(),
                    bootstrapServers(),
                    (System.nanoTime() - t0) / 1_000_000,
                    (formatted - t0) / 1_000_000,
                    base);
        } catch (RuntimeException | Error e) {
            close();
            throw e;
        }
    }

    /** {@code 127.0.0.1:port,...} of every broker, running or not. */
    public String bootstrapServers() {
        requireNodes();
        return brokerNodes().stream().map(KafkaNode::address).collect(Collectors.joining(","));
    }

    /**
     * {@code 127.0.0.1:port,...} of every broker's TLS client listener ({@link ProcessKafkaClusterBuilder#tlsListener}).
     *
     * @throws IllegalStateException when the cluster has no TLS listener or has not been started
     */
    public synchronized String tlsBootstrapServers() {
        requireTls();
        return tlsPorts.values().stream().map(port -> "127.0.0.1:" + port).collect(Collectors.joining(","));
    }

    /**
     * Client properties for the TLS listener, bootstrap servers included: {@code security.protocol=SSL}, the trust
     * store, hostname verification on, and under mutual TLS the cluster's own client certificate. They hold the
     * stores' passwords: do not log them.
     *
     * @throws IllegalStateException when the cluster has no TLS listener or has not been started
     */
    public Map<String, String> tlsClientProperties() {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("bootstrap.servers", tlsBootstrapServers());
        p.putAll(settings.tls().clientProperties());
        return p;
    }

    /** Broker ids, 0..n-1. */
    public List<Integer> brokerIds() {
        return IntStream.range(0, settings.brokers()).boxed().toList();
    }

    /** Id of the controller node ({@value #CONTROLLER_ID}); it accepts the per-node methods too. */
    public int controllerId() {
        return CONTROLLER_ID;
    }

    /** The directory holding every node's directory; deleted by {@link #close()}. */
    public Path baseDirectory() {
        requireNodes();
        return base;
    }

    /**
     * PID of the node's running process.
     *
     * @throws IllegalStateException when it is not running
     */
    public long pid(int nodeId) {
        return node(nodeId).pid();
    }

    public boolean isRunning(int nodeId) {
        return node(nodeId).isRunning();
    }

    /** SIGKILL to the node's process, as a crash: no controlled shutdown. Returns once it has exited. */
    public void kill(int nodeId) {
        runningNode(nodeId).kill();
    }

    /**
     * SIGTERM to the node's process, which makes Kafka shut down in a controlled way (a broker hands its
     * leadership over first); SIGKILL if it has not exited within the stop timeout. Returns once it has exited.
     */
    public void stop(int nodeId) {
        runningNode(nodeId).stop(settings.stopTimeout());
    }

    /**
     * Starts a stopped or killed node again, on the same port and data directory. Returns once the process runs;
     * use {@link #awaitRegistered} and {@link #awaitUnfenced} to wait for the broker.
     */
    public void start(int nodeId) {
        start(nodeId, Map.of());
    }

    /**
     * Starts a stopped or killed node again, like {@link #start(int)}, with these settings on top of its
     * {@code server.properties} for this run only: static broker settings (fetch sizes, thread counts) a test restarts
     * one broker under; the next start without them writes the file as the cluster made it.
     *
     * @throws IllegalArgumentException naming a key the cluster decides itself (roles, ids, listeners, directories)
     */
    public void start(int nodeId, Map<String, String> overrides) {
        for (String k : overrides.keySet()) {
            if (ServerProperties.RESERVED.contains(k)) {
                throw new IllegalArgumentException(k + " is set by the cluster itself and cannot be overridden;"
                        + " reserved: " + new TreeSet<>(ServerProperties.RESERVED));
            }
        }
        KafkaNode node = node(nodeId);
        synchronized (this) {
            if (state != State.RUNNING) {
                throw new IllegalStateException(
                        "the cluster is " + state + ": start(" + nodeId + ") needs a started cluster");
            }
            if (node.isRunning()) {
                throw new IllegalStateException(node.label() + " is already running");
            }
            Map<String, String> props = new LinkedHashMap<>(baseProperties.get(nodeId));
            props.putAll(overrides);
            ServerProperties.write(node.properties, props);
            node.start(children);
        }
    }

    /**
     * Returns once the controller has accepted the running broker's registration; it may still be fenced.
     *
     * <p>Why this moment: the JVM's start-up and the log recovery are over, so a CPU cap applied now slows the
     * broker's catch-up without stretching its start-up (a broker started under a 15 % cap took 44 s to start).
     *
     * @throws ProcessClusterException when the broker exits or is not registered within {@code timeout}
     */
    public void awaitRegistered(int brokerId, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        awaitRegistered(broker(brokerId), timeout, deadline);
    }

    /**
     * Returns once the running broker is registered and unfenced: it serves clients and can join ISRs.
     *
     * @throws ProcessClusterException when the broker exits or is not unfenced within {@code timeout}
     */
    public void awaitUnfenced(int brokerId, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        KafkaNode node = broker(brokerId);
        awaitRegistered(node, timeout, deadline);
        await(
                node,
                "be unfenced",
                timeout,
                deadline,
                () -> currentStates()
                        .fencing(SLICE)
                        .map(f -> Boolean.FALSE.equals(f.get(brokerId)))
                        .orElse(false));
    }

    /** The node's server log (its standard output and error, including the storage tool's run). */
    public Path logFile(int nodeId) {
        return node(nodeId).log;
    }

    /** PIDs of every process this cluster has started (the storage tool's runs too), alive or not. */
    List<Long> startedPids() {
        return children.pids();
    }

    /**
     * Stops every process this cluster started, by PID: SIGTERM to the brokers, then to the controller, each with
     * a bounded wait and SIGKILL after it; then deletes the base directory. Idempotent.
     */
    @Override
    public void close() {
        BrokerStates view;
        synchronized (this) {
            if (state == State.CLOSED) {
                return;
            }
            state = State.CLOSED;
            view = states;
            states = null;
        }
        ShutdownCleanup.unregister(this);
        if (view != null) {
            view.close();
        }
        List<Process> brokers = new ArrayList<>();
        for (KafkaNode node : brokerNodes()) {
            Optional.ofNullable(node.process()).ifPresent(brokers::add);
        }
        children.stopAll(brokers, settings.stopTimeout());
        Directories.deleteRecursively(base);
    }

    private void awaitRegistered(KafkaNode node, Duration timeout, long deadline) {
        if (node.process() == null) {
            throw new IllegalStateException(node.label() + " was never started");
        }
        if (!node.firstRun() && !node.registrationSeen()) {
            // The earlier run's registration is still listed, so "listed" proves nothing: this run has registered
            // when its log says so (the exact moment), or at the latest once it answers on its own listener.
            try (BrokerStates own = ownStates(node)) {
                await(
                        node,
                        "register",
                        timeout,
                        deadline,
                        () -> node.logSaysRegistered()
                                || own.fencing(PROBE_SLICE).isPresent());
            }
            node.markRegistrationSeen();
        }
        await(
                node,
                "register",
                timeout,
                deadline,
                () -> currentStates()
                        .fencing(SLICE)
                        .map(f -> f.containsKey(node.id))
                        .orElse(false));
    }

    private void awaitEveryBrokerUnfenced(BrokerStates view, long deadline) {
        Predicate<Map<Integer, Boolean>> allUnfenced =
                f -> brokerIds().stream().allMatch(id -> Boolean.FALSE.equals(f.get(id)));
        Map<Integer, Boolean> last = Map.of();
        while (true) {
            for (KafkaNode node : nodes.values()) {
                node.checkAlive("during start-up");
            }
            Optional<Map<Integer, Boolean>> fencing = view.fencing(SLICE);
            if (fencing.isPresent()) {
                last = fencing.get();
                if (allUnfenced.test(last)) {
                    return;
                }
            }
            if (System.nanoTime() > deadline) {
                throw notReadyAtStart(last);
            }
            pause();
        }
    }

    private ProcessClusterException notReadyAtStart(Map<Integer, Boolean> last) {
        Map<Integer, Boolean> seen = last;
        KafkaNode laggard = brokerNodes().stream()
                .filter(b -> !Boolean.FALSE.equals(seen.get(b.id)))
                .findFirst()
                .orElse(brokerNodes().get(0));
        String what = seen.containsKey(laggard.id) ? "was registered but still fenced" : "was not registered";
        return laggard.failure(laggard.label() + " " + what + " after "
                + settings.startTimeout().toSeconds() + " s of start-up (brokers seen, id=fenced: " + seen + ")");
    }

    /** Polls {@code condition} until it holds, failing when the broker or the controller exits or time runs out. */
    private void await(KafkaNode node, String what, Duration timeout, long deadline, BooleanSupplier condition) {
        String during = "while waiting for " + node.label() + " to " + what;
        while (true) {
            node.checkAlive(during);
            controller().checkAlive(during);
            node.requireRunning();
            if (condition.getAsBoolean()) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw node.failure(node.label() + " did not " + what + " within " + timeout.toMillis() + " ms");
            }
            pause();
        }
    }

    private static void pause() {
        try {
            Thread.sleep(POLL.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ProcessClusterException("interrupted while waiting for the cluster", e);
        }
    }

    private synchronized BrokerStates openStates() {
        if (state != State.STARTING) {
            throw new ProcessClusterException("the cluster was closed while it started");
        }
        states = settings.tls() == null
                ? new BrokerStates(bootstrapServers())
                : new BrokerStates(tlsBootstrapServers(), settings.tls().clientProperties());
        return states;
    }

    /** A view that only this broker's client listener can answer: over TLS when the cluster has a TLS listener. */
    private synchronized BrokerStates ownStates(KafkaNode node) {
        return settings.tls() == null
                ? new BrokerStates(node.address())
                : new BrokerStates(
                        "127.0.0.1:" + tlsPorts.get(node.id), settings.tls().clientProperties());
    }

    private synchronized void requireTls() {
        requireNodes();
        if (settings.tls() == null) {
            throw new IllegalStateException(
                    "the cluster has no TLS listener (see ProcessKafkaClusterBuilder.tlsListener)");
        }
    }

    private synchronized BrokerStates currentStates() {
        if (states == null) {
            throw new IllegalStateException("the cluster is " + state);
        }
        return states;
    }

    /** Publishes the layout's nodes, so that {@link #close()} finds every one of them even during the start. */
    private synchronized void publish(List<NodeLayout.Node> layout) {
        for (NodeLayout.Node n : layout) {
            nodes.put(n.node().id, n.node());
            baseProperties.put(n.node().id, n.properties());
            if (n.tlsPort() != 0) {
                tlsPorts.put(n.node().id, n.tlsPort());
            }
        }
    }

    private synchronized void requireNodes() {
        if (nodes.isEmpty()) {
            throw new IllegalStateException("the cluster has not been started");
        }
    }

    private synchronized KafkaNode node(int nodeId) {
        requireNodes();
        KafkaNode node = nodes.get(nodeId);
        if (node == null) {
            throw new IllegalArgumentException(
                    "no node " + nodeId + " (brokers " + brokerIds() + ", controller " + CONTROLLER_ID + ")");
        }
        return node;
    }

    private KafkaNode runningNode(int nodeId) {
        KafkaNode node = node(nodeId);
        node.requireRunning();
        return node;
    }

    private KafkaNode broker(int brokerId) {
        KafkaNode node = node(brokerId);
        if (node.role != NodeRole.BROKER) {
            throw new IllegalArgumentException(node.label() + " is not a broker");
        }
        return node;
    }

    private synchronized KafkaNode controller() {
        return nodes.get(CONTROLLER_ID);
    }

    private synchronized List<KafkaNode> brokerNodes() {
        return nodes.values().stream().filter(n -> n.role == NodeRole.BROKER).toList();
    }
}
