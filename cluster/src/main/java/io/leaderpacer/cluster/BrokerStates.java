package io.leaderpacer.cluster;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.errors.UnsupportedVersionException;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * What the cluster says about its brokers: which are registered, and which of those are fenced.
 *
 * <p>Why {@code describeCluster} with fenced brokers included: a broker answers it from the controller's metadata,
 * which lists every registration with its fencing state (KIP-1073, Kafka 4.0 and later). Every broker can answer,
 * so this works while some brokers are down. A 3.x broker rejects the option (its {@code DescribeCluster} has no
 * version 2); it lists only unfenced brokers, so there "registered" and "unfenced" become the same moment: the
 * answer then holds only unfenced brokers, and {@link #listsFencedBrokers()} says so.
 *
 * <p>Why an instance may know only one broker: after a kill, the old registration stays in the
 * metadata (fenced after the session timeout), so "listed" says nothing about the new process. A broker serves
 * requests on its own listener only once the controller has accepted its registration and it has caught up with
 * the metadata log; an instance bootstrapped with only that listener can therefore answer {@link #fencing} only
 * once the new process has registered.
 */
final class BrokerStates implements AutoCloseable {

    /** The client behind {@link #fencing}: bootstrapped with the given brokers only. */
    private final Admin admin;
    /** Cleared the first time the cluster rejects {@code includeFencedBrokers} (Kafka 3.x); not asked again. */
    private volatile boolean fencedListed = true;

    /** @param bootstrapServers every broker (to ask the cluster), or one broker (to know that it answers) */
    BrokerStates(String bootstrapServers) {
        this(bootstrapServers, Map.of());
    }

    /**
     * @param bootstrapServers every broker (to ask the cluster), or one broker (to know that it answers)
     * @param security         extra client settings, e.g. a TLS listener's trust store; empty for PLAINTEXT
     */
    BrokerStates(String bootstrapServers, Map<String, String> security) {
        Properties p = clientProperties(bootstrapServers, "leader-pacer-cluster-states");
        p.putAll(security);
        this.admin = Admin.create(p);
    }

    /** Broker id to "is fenced" for every registered broker, or empty when no broker answered in time. */
    Optional<Map<Integer, Boolean>> fencing(Duration timeout) {
        boolean withFenced = fencedListed;
        DescribeClusterOptions options =
                new DescribeClusterOptions().includeFencedBrokers(withFenced).timeoutMs((int) timeout.toMillis());
        Admin client = admin;
        try {
            Map<Integer, Boolean> fenced = new HashMap<>();
            for (Node node :
                    client.describeCluster(options).nodes().get(timeout.toMillis() + 500, TimeUnit.MILLISECONDS)) {
                fenced.put(node.id(), node.isFenced());
            }
            return Optional.of(fenced);
        } catch (ExecutionException e) {
            if (withFenced && e.getCause() instanceof UnsupportedVersionException) {
                fencedListed = false;
                return fencing(timeout);
            }
            return Optional.empty();
        } catch (TimeoutException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ProcessClusterException("interrupted while asking the cluster for its brokers", e);
        }
    }

    /**
     * Whether the answers list fenced brokers too (Kafka 4.0 and later); false once a 3.x cluster rejected the
     * option, and then only unfenced brokers are listed.
     */
    boolean listsFencedBrokers() {
        return fencedListed;
    }

    private static Properties clientProperties(String bootstrap, String clientId) {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(AdminClientConfig.CLIENT_ID_CONFIG, clientId);
        // Short timeouts and backoffs: the caller polls, and brokers come and go.
        p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "2000");
        p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "5000");
        p.put(AdminClientConfig.RETRY_BACKOFF_MS_CONFIG, "100");
        p.put(AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, "500");
        p.put(AdminClientConfig.METADATA_MAX_AGE_CONFIG, "1000");
        return p;
    }

    @Override
    public void close() {
        admin.close(Duration.ofSeconds(2));
    }
}
