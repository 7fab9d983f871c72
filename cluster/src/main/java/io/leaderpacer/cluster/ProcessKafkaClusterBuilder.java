package io.leaderpacer.cluster;

import io.leaderpacer.cluster.process.ChildProcesses;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Builds a {@link ProcessKafkaCluster}; every setting has a default that works on a small machine.
 *
 * <p>Why the class path is a setting: by default the children run the Kafka server found on this JVM's own class
 * path (the test class path under Surefire), but a version matrix runs each Kafka version from its own jars.
 */
public final class ProcessKafkaClusterBuilder {

    /** What {@code -Xmx} accepts: a number with an optional unit. */
    private static final Pattern HEAP = Pattern.compile("\\d+[kKmMgG]?");

    private int brokers = 3;
    private final Map<String, String> brokerConfig = new LinkedHashMap<>();
    private final Map<String, String> controllerConfig = new LinkedHashMap<>();
    private String brokerHeap = "512m";
    private String controllerHeap = "256m";
    private final List<String> jvmOptions = new ArrayList<>();
    private Path baseDirectory;
    private String classpath;
    private Path javaExecutable = Path.of(System.getProperty("java.home"), "bin", "java");
    private Duration startTimeout = Duration.ofSeconds(120);
    private Duration stopTimeout = Duration.ofSeconds(20);
    /** The brokers' TLS client listener; null for none. */
    private TlsListener tls;

    ProcessKafkaClusterBuilder() {}

    /** Number of brokers (ids 0..n-1), 1 to 100; default 3. There is always one controller, id 3000. */
    public ProcessKafkaClusterBuilder brokers(int count) {
        if (count < 1 || count > 100) {
            throw new IllegalArgumentException("brokers must be 1..100, not " + count);
        }
        this.brokers = count;
        return this;
    }

    /**
     * An extra server property for every broker, repeatable; it overrides the defaults. The controller gets it too:
     * in KRaft it reads some broker-looking keys itself ({@code auto.leader.rebalance.enable},
     * {@code leader.imbalance.*}, {@code broker.session.timeout.ms}). Roles, ids, listeners and directories are
     * the cluster's own and rejected.
     */
    public ProcessKafkaClusterBuilder brokerConfig(String key, String value) {
        brokerConfig.put(checkKey(key), Objects.requireNonNull(value, "value"));
        return this;
    }

    /** An extra server property for the controller only, applied after {@link #brokerConfig}. */
    public ProcessKafkaClusterBuilder controllerConfig(String key, String value) {
        controllerConfig.put(checkKey(key), Objects.requireNonNull(value, "value"));
        return this;
    }

    /** {@code -Xmx} of each broker JVM, e.g. {@code 512m} (the default). */
    public ProcessKafkaClusterBuilder brokerHeap(String heap) {
        this.brokerHeap = checkHeap(heap);
        return this;
    }

    /** {@code -Xmx} of the controller JVM; default {@code 256m}. */
    public ProcessKafkaClusterBuilder controllerHeap(String heap) {
        this.controllerHeap = checkHeap(heap);
        return this;
    }

    /** An extra option for every broker and controller JVM, after the defaults (so it wins), repeatable. */
    public ProcessKafkaClusterBuilder jvmOption(String option) {
        jvmOptions.add(Objects.requireNonNull(option, "option"));
        return this;
    }

    /**
     * The cluster's own directory, created if missing and deleted by {@code close()}, so it must be empty. Default:
     * a new directory under the shared-memory tmpfs ({@code /dev/shm}) when there is one, else under java.io.tmpdir.
     */
    public ProcessKafkaClusterBuilder baseDirectory(Path directory) {
        this.baseDirectory = Objects.requireNonNull(directory, "directory");
        return this;
    }

    /**
     * The children's class path: Kafka's server, its dependencies and one SLF4J binding. Default: this JVM's
     * ({@code surefire.test.class.path} under Surefire, else {@code java.class.path}; a jar whose manifest has a
     * {@code Class-Path} works as it is).
     */
    public ProcessKafkaClusterBuilder classpath(String classpath) {
        if (classpath == null || classpath.isBlank()) {
            throw new IllegalArgumentException("classpath must not be blank");
        }
        this.classpath = classpath;
        return this;
    }

    /** The children's {@code java}; default this JVM's. */
    public ProcessKafkaClusterBuilder javaExecutable(Path java) {
        this.javaExecutable = Objects.requireNonNull(java, "java");
        return this;
    }

    /** Bound of {@code start()}: formatting, and every broker registered and unfenced. Default 120 s. */
    public ProcessKafkaClusterBuilder startTimeout(Duration timeout) {
        this.startTimeout = checkPositive(timeout, "startTimeout");
        return this;
    }

    /** How long {@code stop()} and {@code close()} give a SIGTERM before they send SIGKILL. Default 20 s. */
    public ProcessKafkaClusterBuilder stopTimeout(Duration timeout) {
        this.stopTimeout = checkPositive(timeout, "stopTimeout");
        return this;
    }

    /**
     * An {@code SSL} client listener on every broker, on 127.0.0.1 and a port of its own, next to the PLAINTEXT
     * listener the nodes use between themselves (which stays open on 127.0.0.1 too). The cluster's own readiness
     * checks then go over TLS, with hostname verification, and under mutual TLS with the given client certificate;
     * clients reach it at {@link ProcessKafkaCluster#tlsBootstrapServers()} with
     * {@link ProcessKafkaCluster#tlsClientProperties()}.
     */
    public ProcessKafkaClusterBuilder tlsListener(TlsListener listener) {
        this.tls = Objects.requireNonNull(listener, "listener");
        return this;
    }

    /** An unstarted cluster; call {@link ProcessKafkaCluster#start()}. */
    public ProcessKafkaCluster build() {
        String cp = classpath != null ? classpath : ChildProcesses.thisJvmClasspath();
        return ProcessKafkaCluster.of(new ClusterSettings(
                brokers,
                brokerConfig,
                controllerConfig,
                brokerHeap,
                controllerHeap,
                jvmOptions,
                baseDirectory,
                cp,
                javaExecutable,
                startTimeout,
                stopTimeout,
                tls));
    }

    private static String checkKey(String key) {
        Objects.requireNonNull(key, "key");
        if (ServerProperties.RESERVED.contains(key.trim())) {
            throw new IllegalArgumentException(
                    key + " is set by the cluster itself (roles, ids, listeners, directories)");
        }
        return key.trim();
    }

    private static String checkHeap(String heap) {
        if (heap == null || !HEAP.matcher(heap).matches()) {
            throw new IllegalArgumentException("heap must look like 512m or 1g, not " + heap);
        }
        return heap;
    }

    private static Duration checkPositive(Duration d, String name) {
        if (d == null || d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(name + " must be positive, not " + d);
        }
        return d;
    }
}
