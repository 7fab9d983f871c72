package io.leaderpacer.agent.kafka;

import io.leaderpacer.agent.core.TimeoutMs;
import io.leaderpacer.engine.cluster.BrokerState;
import io.leaderpacer.engine.cluster.ClusterSnapshot;
import io.leaderpacer.engine.cluster.InvalidSnapshotException;
import io.leaderpacer.engine.cluster.PartialRead;
import io.leaderpacer.engine.cluster.PartitionId;
import io.leaderpacer.engine.cluster.PartitionState;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.ListPartitionReassignmentsOptions;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicCollection;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.ClusterAuthorizationException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.errors.UnsupportedVersionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Reads the cluster's brokers and partitions into the engine's {@link ClusterSnapshot}.
 *
 * <p>Why: the engine decides on an immutable snapshot; this builds it from four Admin calls, the way the
 * controller's metadata image holds it: brokers with their fenced state ({@code includeFencedBrokers} where the
 * cluster supports it), every topic including internal ones (the preferred-leader task does not exempt them),
 * each partition's replicas, ISR, ELR and leader (topics described in batches), and the reassignments in
 * progress (those partitions are left alone, as the controller does).
 *
 * <p>A live cluster changes while it is read: a topic deleted between listing and describing is left out; a
 * broker named in an ISR but not listed by the cluster is taken as fenced (it cannot lead); a partition whose
 * state the engine refuses is left out and logged. Partitions are in a stable order: topic, then partition.
 */
public final class ClusterReader {

    private static final Logger LOG = LoggerFactory.getLogger(ClusterReader.class);

    /** The cluster. Owned by the caller. */
    private final Admin admin;
    /** Bound on each Admin call. */
    private final Duration timeout;
    /** Topics per describeTopics request, so that one request never carries the whole cluster. */
    private final int topicsPerBatch;
    /** Cleared when the cluster rejects {@code includeFencedBrokers} (older than Kafka 4.0): not asked again. */
    private volatile boolean fencedBrokersSupported = true;
    /** Set once the reassignment listing was refused, so that the warning is logged once. */
    private volatile boolean reassignmentsWarned;

    public ClusterReader(Admin admin, Duration timeout, int topicsPerBatch) {
        this.admin = Objects.requireNonNull(admin, "admin");
        this.timeout = Objects.requireNonNull(timeout, "timeout");
        if (topicsPerBatch < 1) {
            throw new IllegalArgumentException("topicsPerBatch must be >= 1, was " + topicsPerBatch);
        }
        this.topicsPerBatch = topicsPerBatch;
    }

    /**
     * Reads the cluster now.
     *
     * @throws ExecutionException   when Kafka answered a whole call with an error (e.g. not authorized)
     * @throws TimeoutException     when Kafka did not answer in time
     */
    public ClusterSnapshot read() throws InterruptedException, ExecutionException, TimeoutException {
        KafkaFuture<Set<String>> topicNames = admin.listTopics(
                        new ListTopicsOptions().listInternal(true).timeoutMs(timeoutMs()))
                .names();
        Collection<Node> nodes = describeBrokers();
        Set<TopicPartition> reassigning = reassigningPartitions();
        return snapshotOf(nodes, reassigning, describeTopics(new TreeSet<>(await(topicNames))));
    }

    /**
     * Every topic's name, internal ones included (one {@code listTopics}): what a throttle can be set on.
     *
     * @throws ExecutionException   when Kafka answered the call with an error (e.g. not authorized)
     * @throws TimeoutException     when Kafka did not answer in time
     */
    public SortedSet<String> topicNames() throws InterruptedException, ExecutionException, TimeoutException {
        return new TreeSet<>(await(
                admin.listTopics(new ListTopicsOptions().listInternal(true).timeoutMs(timeoutMs()))
                        .names()));
    }

    /**
     * Reads the brokers only (one {@code describeCluster}): what a quiet pacing look needs to know that no broker
     * stopped, started or was fenced since its last full read. Fenced brokers are listed where the cluster can
     * (Kafka 4.0+); on older clusters a fenced broker is absent.
     *
     * @throws ExecutionException   when Kafka answered the call with an error (e.g. not authorized)
     * @throws TimeoutException     when Kafka did not answer in time
     */
    public Set<BrokerState> brokers() throws InterruptedException, ExecutionException, TimeoutException {
        Set<BrokerState> out = new HashSet<>();
        for (Node n : describeBrokers()) {
            out.add(new BrokerState(n.id(), n.isFenced(), false));
        }
        return Set.copyOf(out);
    }

    /**
     * Reads the brokers and the named topics only: a re-check's read of its scope. A named topic that no longer
     * exists is absent from the result (the caller's follower then asks for a full read).
     *
     * @throws ExecutionException   when Kafka answered a whole call with an error (e.g. not authorized)
     * @throws TimeoutException     when Kafka did not answer in time
     */
    public PartialRead read(SortedSet<String> topics)
            throws InterruptedException, ExecutionException, TimeoutException {
        Collection<Node> nodes = describeBrokers();
        Set<TopicPartition> reassigning = reassigningPartitions();
        return partialOf(nodes, reassigning, topics, describeTopics(topics));
    }

    /**
     * The partial read of {@code topics} from what Kafka answered: the client-side half of {@link #read(SortedSet)},
     * apart so that it can be measured without a cluster.
     */
    public static PartialRead partialOf(
            Collection<Node> nodes,
            Set<TopicPartition> reassigning,
            SortedSet<String> topics,
            Collection<TopicDescription> described) {
        ClusterSnapshot s = snapshotOf(nodes, reassigning, described);
        return new PartialRead(List.copyOf(s.brokers().values()), topics, s.partitions());
    }

    /**
     * The snapshot of what Kafka answered: the brokers, and the partitions of the topics in topic then partition
     * order. The client-side half of {@link #read()}, apart so that it can be measured without a cluster.
     */
    public static ClusterSnapshot snapshotOf(
            Collection<Node> nodes, Set<TopicPartition> reassigning, Collection<TopicDescription> described) {
        List<TopicDescription> topics = new ArrayList<>(described);
        ClusterSnapshot.Builder builder = ClusterSnapshot.builder();
        Set<Integer> registered = new HashSet<>();
        for (Node n : nodes) {
            builder.broker(new BrokerState(n.id(), n.isFenced(), false));
            registered.add(n.id());
        }
        topics.sort(Comparator.comparing(TopicDescription::name));
        for (TopicDescription t : topics) {
            List<TopicPartitionInfo> partitions = new ArrayList<>(t.partitions());
            partitions.sort(Comparator.comparingInt(TopicPartitionInfo::partition));
            for (TopicPartitionInfo p : partitions) {
                PartitionState state =
                        toState(t.name(), p, reassigning.contains(new TopicPartition(t.name(), p.partition())));
                if (state == null) {
                    continue;
                }
                for (Node member : p.isr()) {
                    if (registered.add(member.id())) {
                        // Listed in an ISR but not by describeCluster: gone or fenced on an older cluster.
                        builder.broker(BrokerState.fenced(member.id()));
                    }
                }
                builder.partition(state);
            }
        }
        return builder.build();
    }

    /**
     * Whether the cluster lists its fenced brokers (Kafka 4.0+), as far as this reader has asked: then a broker it
     * does not list is not registered at all, not just down. On older clusters the two cannot be told apart.
     */
    public boolean listsFencedBrokers() {
        return fencedBrokersSupported;
    }

    private Collection<Node> describeBrokers() throws InterruptedException, ExecutionException, TimeoutException {
        if (fencedBrokersSupported) {
            try {
                return await(admin.describeCluster(new DescribeClusterOptions()
                                .includeFencedBrokers(true)
                                .timeoutMs(timeoutMs()))
                        .nodes());
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof UnsupportedVersionException)) {
                    throw e;
                }
                fencedBrokersSupported = false;
                LOG.info(
                        "the cluster cannot list fenced brokers (older than Kafka 4.0); brokers it does not list are taken as not active");
            }
        }
        return await(admin.describeCluster(new DescribeClusterOptions().timeoutMs(timeoutMs()))
                .nodes());
    }

    private Set<TopicPartition> reassigningPartitions()
            throws InterruptedException, ExecutionException, TimeoutException {
        try {
            return await(admin.listPartitionReassignments(
                                    new ListPartitionReassignmentsOptions().timeoutMs(timeoutMs()))
                            .reassignments())
                    .keySet();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnsupportedVersionException
                    || e.getCause() instanceof ClusterAuthorizationException) {
                if (!reassignmentsWarned) {
                    reassignmentsWarned = true;
                    LOG.warn(
                            "cannot list partition reassignments ({}); partitions being reassigned will not be recognised",
                            e.getCause().getMessage());
                }
                return Set.of();
            }
            throw e;
        }
    }

    private List<TopicDescription> describeTopics(Set<String> names)
            throws InterruptedException, ExecutionException, TimeoutException {
        List<Map<String, KafkaFuture<TopicDescription>>> batches = new ArrayList<>();
        List<String> batch = new ArrayList<>(topicsPerBatch);
        for (String name : names) {
            batch.add(name);
            if (batch.size() == topicsPerBatch) {
                batches.add(describeBatch(batch));
                batch = new ArrayList<>(topicsPerBatch);
            }
        }
        if (!batch.isEmpty()) {
            batches.add(describeBatch(batch));
        }
        List<TopicDescription> out = new ArrayList<>(names.size());
        for (Map<String, KafkaFuture<TopicDescription>> futures : batches) {
            for (Map.Entry<String, KafkaFuture<TopicDescription>> e : futures.entrySet()) {
                try {
                    out.add(await(e.getValue()));
                } catch (ExecutionException ex) {
                    if (ex.getCause() instanceof UnknownTopicOrPartitionException) {
                        LOG.debug("topic {} disappeared while the cluster was read (deleted); left out", e.getKey());
                        continue;
                    }
                    throw ex;
                }
            }
        }
        return out;
    }

    private Map<String, KafkaFuture<TopicDescription>> describeBatch(List<String> names) {
        return admin.describeTopics(
                        TopicCollection.ofTopicNames(names), new DescribeTopicsOptions().timeoutMs(timeoutMs()))
                .topicNameValues();
    }

    private static PartitionState toState(String topic, TopicPartitionInfo p, boolean reassigning) {
        try {
            return new PartitionState(
                    new PartitionId(topic, p.partition()),
                    ids(p.replicas()),
                    ids(p.isr()),
                    ids(p.elr()),
                    p.leader() == null || p.leader().isEmpty()
                            ? PartitionState.NO_LEADER
                            : p.leader().id(),
                    reassigning,
                    false,
                    ids(p.lastKnownElr()));
        } catch (InvalidSnapshotException e) {
            LOG.warn("left out of this run: {}", e.getMessage());
            return null;
        }
    }

    private static int[] ids(List<Node> nodes) {
        if (nodes == null) {
            return new int[0];
        }
        int[] out = new int[nodes.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = nodes.get(i).id();
        }
        return out;
    }

    private int timeoutMs() {
        return TimeoutMs.of(timeout);
    }

    /** Waits a little longer than the request time-out: Kafka fails the future itself when its time-out expires. */
    private <T> T await(KafkaFuture<T> future) throws InterruptedException, ExecutionException, TimeoutException {
        return future.get(timeout.toMillis() + 5_000, TimeUnit.MILLISECONDS);
    }
}
