package io.leaderpacer.loadtest.observe;

import io.leaderpacer.agent.pacing.ReplicaBytes;
import io.leaderpacer.engine.cluster.PartitionId;
import io.leaderpacer.engine.cluster.PartitionState;
import io.leaderpacer.loadtest.load.BrokerRole;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeLogDirsOptions;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Samples, through the Admin API, every partition's leader and ISR and the restarted broker's state, a few times a
 * second for the whole round.
 *
 * <p>Why one watcher for three uses: the producers need the broker's current role per partition to classify each send;
 * the report needs the samples (leadership and ISR over time); the round needs the ISR re-entry time of every partition
 * after unfencing (the physical limit of a recovery is the last of them). A failed look is skipped, never fatal: the
 * cluster is meant to be disturbed.
 */
public final class PartitionWatcher implements AutoCloseable {

    private final Admin admin;
    private final int broker;
    private final String loadTopic;
    private final LongSupplier clockMs;
    private final ScheduledExecutorService timer;
    /** The broker's role in each partition of the load topic, as last seen; replaced whole, never mutated. */
    private volatile BrokerRole[] loadRoles;
    /** Every sample, in time order. */
    private final List<PartitionSample> samples = new ArrayList<>();
    /** Per partition the broker is preferred for: the first sample after {@link #trackReentries()} that saw it in the ISR. */
    private final Map<TopicPartition, Long> preferredReentryMs = new HashMap<>();
    /** Whether ISR re-entries are being recorded (from unfencing on). */
    private boolean tracking;
    /** The last sample, or null before the first. */
    private volatile PartitionSample last;

    /**
     * @param admin      a client of the cluster (not closed here)
     * @param broker     the restarted broker
     * @param loadTopic  the topic the classified producers write to
     * @param partitions its partition count
     * @param clockMs    milliseconds since the round started
     */
    public PartitionWatcher(Admin admin, int broker, String loadTopic, int partitions, LongSupplier clockMs) {
        this.admin = admin;
        this.broker = broker;
        this.loadTopic = loadTopic;
        this.clockMs = clockMs;
        this.loadRoles = new BrokerRole[partitions];
        Arrays.fill(loadRoles, BrokerRole.NOT_IN_ISR);
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "loadtest-watcher");
            t.setDaemon(true);
            return t;
        });
    }

    /** Takes one sample now (so roles are known before the load starts), then one every {@code periodMs}. */
    public PartitionWatcher start(long periodMs) {
        sampleQuietly();
        timer.scheduleWithFixedDelay(this::sampleQuietly, periodMs, periodMs, TimeUnit.MILLISECONDS);
        return this;
    }

    /** The broker's role in this partition of the load topic, as last seen. */
    public BrokerRole role(int partition) {
        return loadRoles[partition];
    }

    /** From now on, record when each preferred partition's ISR takes the broker back. */
    public synchronized void trackReentries() {
        preferredReentryMs.clear();
        tracking = true;
    }

    /** The state of the broker now, from the controller (one request; ABSENT also when the cluster does not answer). */
    public BrokerStatus brokerStatus() {
        return BrokerStatus.of(admin, broker);
    }

    private void sampleQuietly() {
        try {
            sample();
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            // A look that failed while brokers restart: the next one will do.
        }
    }

    private void sample() throws Exception {
        Set<String> names = admin.listTopics(
                        new ListTopicsOptions().listInternal(true).timeoutMs(3000))
                .names()
                .get(4, TimeUnit.SECONDS);
        Map<String, TopicDescription> topics =
                admin.describeTopics(names).allTopicNames().get(4, TimeUnit.SECONDS);
        BrokerStatus status = brokerStatus();
        long now = clockMs.getAsLong();
        Tally tally = new Tally(broker);
        BrokerRole[] roles = loadRoles.clone();
        for (TopicDescription topic : topics.values()) {
            for (TopicPartitionInfo p : topic.partitions()) {
                if (topic.name().equals(loadTopic) && p.partition() < roles.length) {
                    roles[p.partition()] = role(p);
                }
                tally.count(topic, p);
            }
        }
        loadRoles = roles;
        PartitionSample s = tally.sample(now, status, replicaBytes(topics));
        synchronized (this) {
            samples.add(s);
            if (tracking) {
                for (TopicPartition tp : tally.preferredInIsr) {
                    preferredReentryMs.putIfAbsent(tp, now);
                }
            }
        }
        last = s;
    }

    /** The broker's role in this partition, as the producers classify a send to it. */
    private BrokerRole role(TopicPartitionInfo p) {
        boolean inIsr = p.isr().stream().anyMatch(n -> n.id() == broker);
        boolean leads = p.leader() != null && p.leader().id() == broker;
        return leads ? BrokerRole.LEADER : inIsr ? BrokerRole.IN_SYNC_FOLLOWER : BrokerRole.NOT_IN_ISR;
    }

    /**
     * The broker's partitions counted over one look: those it hosts, is preferred for, leads and is in the ISR of,
     * and the same for internal topics apart (their leadership is not the load's).
     */
    private static final class Tally {
        private final int broker;
        private int preferred;
        private int led;
        private int hosted;
        private int hostedInIsr;
        private int internalHosted;
        private int internalInIsr;
        private int internalPreferred;
        private int internalPreferredLed;
        /** The partitions it is preferred for and in the ISR of: the candidates for a re-entry time. */
        private final List<TopicPartition> preferredInIsr = new ArrayList<>();

        Tally(int broker) {
            this.broker = broker;
        }

        void count(TopicDescription topic, TopicPartitionInfo p) {
            boolean replica = p.replicas().stream().anyMatch(n -> n.id() == broker);
            if (!replica) {
                return;
            }
            boolean inIsr = p.isr().stream().anyMatch(n -> n.id() == broker);
            boolean leads = p.leader() != null && p.leader().id() == broker;
            hosted++;
            hostedInIsr += inIsr ? 1 : 0;
            boolean preferredHere =
                    !p.replicas().isEmpty() && p.replicas().get(0).id() == broker;
            if (PartitionSample.Internal.isInternal(topic.name(), topic.isInternal())) {
                internalHosted++;
                internalInIsr += inIsr ? 1 : 0;
                internalPreferred += preferredHere ? 1 : 0;
                internalPreferredLed += preferredHere && leads ? 1 : 0;
            }
            if (preferredHere) {
                preferred++;
                led += leads ? 1 : 0;
                if (inIsr) {
                    preferredInIsr.add(new TopicPartition(topic.name(), p.partition()));
                }
            }
        }

        PartitionSample sample(long now, BrokerStatus status, ReplicaBytes bytes) {
            return new PartitionSample(
                    now,
                    status,
                    preferred,
                    led,
                    preferredInIsr.size(),
                    hosted,
                    hostedInIsr,
                    bytes.hosted(),
                    bytes.behind(),
                    new PartitionSample.Internal(
                            internalHosted, internalInIsr, internalPreferred, internalPreferredLed));
        }
    }

    /**
     * The broker's replica bytes and, over the partitions it hosts but does not lead, what their leaders hold beyond
     * it: {@code describeLogDirs} of every broker (sizes only, no data read). Unknown when a broker does not answer,
     * e.g. the restarted one while it is down.
     */
    private ReplicaBytes replicaBytes(Map<String, TopicDescription> topics) {
        try {
            Set<Integer> brokers = new HashSet<>();
            for (TopicDescription topic : topics.values()) {
                for (TopicPartitionInfo p : topic.partitions()) {
                    p.replicas().forEach(n -> brokers.add(n.id()));
                }
            }
            Map<Integer, Map<String, LogDirDescription>> dirs = admin.describeLogDirs(
                            brokers, new DescribeLogDirsOptions().timeoutMs(3000))
                    .allDescriptions()
                    .get(4, TimeUnit.SECONDS);
            Map<Integer, Map<TopicPartition, Long>> sizes = new HashMap<>();
            dirs.forEach((b, byDir) -> {
                Map<TopicPartition, Long> m = new HashMap<>();
                byDir.values()
                        .forEach(d -> d.replicaInfos().forEach((tp, info) -> m.merge(tp, info.size(), Long::sum)));
                sizes.put(b, m);
            });
            return ReplicaBytes.of(broker, sizes, partitions(topics.values()));
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            return ReplicaBytes.UNKNOWN;
        }
    }

    /** The partitions as the agent's arithmetic takes them: replicas and leader (the ISR does not count there). */
    private static List<PartitionState> partitions(Collection<TopicDescription> topics) {
        List<PartitionState> out = new ArrayList<>();
        for (TopicDescription t : topics) {
            for (TopicPartitionInfo p : t.partitions()) {
                int[] replicas = p.replicas().stream().mapToInt(Node::id).toArray();
                out.add(new PartitionState(
                        new PartitionId(t.name(), p.partition()),
                        replicas,
                        replicas,
                        new int[0],
                        p.leader() == null || p.leader().isEmpty()
                                ? PartitionState.NO_LEADER
                                : p.leader().id(),
                        false,
                        false,
                        new int[0]));
            }
        }
        return out;
    }

    /** The last sample, or null before the first one succeeded. */
    public PartitionSample last() {
        return last;
    }

    /** Every sample so far. */
    public synchronized List<PartitionSample> samples() {
        return List.copyOf(samples);
    }

    /** When each preferred partition was first seen back in the ISR since {@link #trackReentries()}, in ms of the round. */
    public synchronized Map<TopicPartition, Long> preferredReentries() {
        return Map.copyOf(preferredReentryMs);
    }

    @Override
    public void close() {
        timer.shutdownNow();
        try {
            timer.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
