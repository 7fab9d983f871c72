package io.leaderpacer.loadtest.testbed;

import io.leaderpacer.cluster.ProcessKafkaCluster;
import io.leaderpacer.cluster.ProcessKafkaClusterBuilder;
import org.apache.kafka.common.utils.AppInfoParser;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * The test's own cluster: one KRaft controller and N brokers as separate processes on 127.0.0.1, data in a temporary
 * directory removed at the end.
 *
 * <p>Why separate processes: a broker in its own process can be killed for real, and its CPU can be capped alone,
 * which an in-JVM cluster cannot do (every broker there shares the same cores, so catch-up slows everyone).
 */
public final class LocalTarget implements TargetCluster {

    /** How long a restarted broker may take to be running again. */
    private static final Duration START_LIMIT = Duration.ofSeconds(120);

    private final ProcessKafkaCluster cluster;

    private LocalTarget(ProcessKafkaCluster cluster) {
        this.cluster = cluster;
    }

    /**
     * Starts the cluster.
     *
     * @param brokers     broker count (ids 0..brokers-1)
     * @param brokerHeap  each broker's -Xmx, e.g. "512m"
     * @param extraConfig server properties for every broker
     */
    public static LocalTarget start(int brokers, String brokerHeap, Map<String, String> extraConfig) {
        ProcessKafkaClusterBuilder b =
                ProcessKafkaCluster.builder().brokers(brokers).brokerHeap(brokerHeap);
        extraConfig.forEach(b::brokerConfig);
        ProcessKafkaCluster cluster = b.build();
        try {
            cluster.start();
        } catch (RuntimeException e) {
            cluster.close();
            throw e;
        }
        return new LocalTarget(cluster);
    }

    @Override
    public String description() {
        return "1 KRaft controller + " + cluster.brokerIds().size()
                + " brokers as separate processes on 127.0.0.1 (Kafka " + kafkaVersion() + ")";
    }

    private static String kafkaVersion() {
        return AppInfoParser.getVersion();
    }

    @Override
    public Map<String, Object> clientProperties() {
        Map<String, Object> props = new HashMap<>();
        props.put("bootstrap.servers", cluster.bootstrapServers());
        return props;
    }

    @Override
    public List<Integer> brokerIds() {
        return cluster.brokerIds();
    }

    @Override
    public void stopBroker(int broker, ShutdownMode mode) {
        if (mode == ShutdownMode.KILL) {
            cluster.kill(broker);
        } else {
            cluster.stop(broker);
        }
    }

    @Override
    public void startBroker(int broker) {
        cluster.start(broker);
    }

    @Override
    public void startBroker(int broker, Map<String, String> staticSettings) {
        cluster.start(broker, staticSettings);
    }

    /** Waits until the controller knows the broker again (fenced or not): the moment to cap it. */
    public void awaitRegistered(int broker) {
        cluster.awaitRegistered(broker, START_LIMIT);
    }

    @Override
    public OptionalLong pid(int broker) {
        return cluster.isRunning(broker) ? OptionalLong.of(cluster.pid(broker)) : OptionalLong.empty();
    }

    /** The PIDs of every process of the cluster that runs now (controller included), to check none is left. */
    public List<Long> pids() {
        List<Long> out = new ArrayList<>();
        List<Integer> nodes = new ArrayList<>(cluster.brokerIds());
        nodes.add(cluster.controllerId());
        for (int id : nodes) {
            if (cluster.isRunning(id)) {
                out.add(cluster.pid(id));
            }
        }
        return out;
    }

    @Override
    public void close() {
        cluster.close();
    }
}
