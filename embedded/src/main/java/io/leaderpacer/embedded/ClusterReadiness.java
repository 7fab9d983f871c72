package io.leaderpacer.embedded;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartitionInfo;

import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What the embedded cluster waits for, as the controller and the brokers report it through the Admin API.
 *
 * <p>Why apart: "started", "restarted" and "topic created" mean "the controller sees it" (unfenced brokers, a
 * leader and a full ISR everywhere), not "the call returned"; these checks say so in one place. Each check is one
 * Admin call that answers false, never throws, while the cluster is still getting there.
 */
final class ClusterReadiness {

    /** The cluster's own Admin client (not closed here). */
    private final Admin admin;

    ClusterReadiness(Admin admin) {
        this.admin = Objects.requireNonNull(admin, "admin");
    }

    /** Registered and unfenced brokers, or -1 when the cluster does not answer. */
    int unfencedBrokers() {
        try {
            Collection<Node> nodes = admin.describeCluster(new DescribeClusterOptions()
                            .includeFencedBrokers(true)
                            .timeoutMs(5000))
                    .nodes()
                    .get();
            return (int) nodes.stream().filter(n -> !n.isFenced()).count();
        } catch (Exception e) {
            return -1;
        }
    }

    boolean isUnfenced(int brokerId) {
        return unfenced(brokerId).orElse(false);
    }

    /**
     * Whether the controller shows the broker fenced or not registered at all; false while the cluster does not
     * answer, so that a wait for it never ends on an error.
     */
    boolean isFenced(int brokerId) {
        return unfenced(brokerId).map(u -> !u).orElse(false);
    }

    /** Whether the controller shows the broker registered and unfenced; empty while the cluster does not answer. */
    private Optional<Boolean> unfenced(int brokerId) {
        try {
            return Optional.of(admin
                    .describeCluster(new DescribeClusterOptions()
                            .includeFencedBrokers(true)
                            .timeoutMs(5000))
                    .nodes()
                    .get()
                    .stream()
                    .anyMatch(n -> n.id() == brokerId && !n.isFenced()));
        } catch (Exception e) {
            return Optional.empty();
        }
    }

    /** Every partition of the topic exists and has a leader and at least {@code replicationFactor} in-sync replicas. */
    boolean fullyReplicated(String topic, int partitions, int replicationFactor) {
        try {
            TopicDescription d =
                    admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic);
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
}
