package io.leaderpacer.bench;

import io.leaderpacer.agent.kafka.ClusterReader;
import io.leaderpacer.engine.BalancerMemory;
import io.leaderpacer.engine.ElectionDecision;
import io.leaderpacer.engine.PreferredLeaderBalancer;
import io.leaderpacer.engine.cluster.BrokerState;
import io.leaderpacer.engine.cluster.ClusterSnapshot;
import io.leaderpacer.engine.cluster.ClusterState;
import io.leaderpacer.engine.cluster.PartitionState;
import io.leaderpacer.engine.cluster.ReadScope;
import io.leaderpacer.engine.cluster.SnapshotFollower;
import io.leaderpacer.engine.config.PacerConfig;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.DescribeTopicPartitionsResponseData;
import org.apache.kafka.common.protocol.ObjectSerializationCache;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.concurrent.TimeUnit;

/**
 * The client-side half of the agent's read, without Kafka: decoding what {@code describeTopics} answers into a
 * snapshot and following it ({@code fullRead}), against a re-check that decodes and follows only its scope
 * ({@code recheck}: the topics with a replica on the one recovering broker, {@link ReadScope}). The answers are
 * synthetic {@link TopicDescription}s of a {@link RecoveringCluster} with one gated broker; the setup prints the
 * scope's size and the bytes Kafka's {@code DescribeTopicPartitions} responses (KIP-966) would carry for each read,
 * as Kafka's own message classes size them.
 *
 * <p>The wire and the brokers' side are not measured here: that is the real-cluster measurement. What this gives
 * is the per-partition cost the agent adds to a read, and how much of the cluster a re-check's scope is under a
 * placement.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms4g", "-Xmx4g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class AgentReadBenchmark {

    @Param({"1000000"})
    public int partitions;

    /** 1,000 brokers (a topic of 100 partitions spans 102 of them) or 100 (every topic spans them all). */
    @Param({"1000", "100"})
    public int brokers;

    private List<Node> nodes;
    private List<TopicDescription> all;
    private List<TopicDescription> scoped;
    private SortedSet<String> scope;
    private SnapshotFollower follower;
    private PacerConfig config;

    @Setup(Level.Trial)
    public void prepare() {
        RecoveringCluster shape = new RecoveringCluster(brokers, partitions, partitions / brokers, 1);
        ClusterSnapshot cluster = shape.build();
        nodes = new ArrayList<>();
        for (BrokerState b : cluster.brokers().values()) {
            nodes.add(new Node(b.id(), "broker-" + b.id(), 9092));
        }
        all = describe(cluster, nodes);
        config = PacerConfig.fromMap(Map.of(
                "leader.imbalance.election.algorithm",
                "wait-for-sync",
                "leader.imbalance.election.wait.for.sync.threshold.percent",
                "5",
                "leader.imbalance.election.wait.for.sync.recheck.interval.ms",
                "15000"));
        follower = new SnapshotFollower();
        ClusterState state = follower.follow(ClusterReader.snapshotOf(nodes, Set.of(), all));
        ElectionDecision d = PreferredLeaderBalancer.decide(state, config, BalancerMemory.empty(), 0);
        scope = ReadScope.topics(state, d.recoveringBrokers(), config.deprioritizedBrokers());
        scoped = all.stream().filter(t -> scope.contains(t.name())).toList();
        long scopedPartitions =
                scoped.stream().mapToLong(t -> t.partitions().size()).sum();
        System.out.printf(
                "%n%d partitions on %d brokers, %d topics; the re-check's scope (recovering %s): %d topics,"
                        + " %d partitions (%.1f %%); DescribeTopicPartitions responses: full read %.1f MB, re-check %.1f MB%n",
                partitions,
                brokers,
                all.size(),
                d.recoveringBrokers(),
                scope.size(),
                scopedPartitions,
                100.0 * scopedPartitions / partitions,
                wireBytes(all) / 1e6,
                wireBytes(scoped) / 1e6);
    }

    /** Decodes a full read and follows it (nothing changed since the last: the steady cost of a full read). */
    @Benchmark
    public ClusterState fullRead() {
        return follower.follow(ClusterReader.snapshotOf(nodes, Set.of(), all));
    }

    /** Decodes a re-check's read of its scope, follows it and decides: a re-check's client-side cost. */
    @Benchmark
    public ElectionDecision recheck() {
        Optional<ClusterState> state = follower.followPartial(ClusterReader.partialOf(nodes, Set.of(), scope, scoped));
        return PreferredLeaderBalancer.decide(state.orElseThrow(), config, BalancerMemory.empty(), 0);
    }

    /** The cluster as {@code describeTopics} answers it, one description per topic, in topic order. */
    static List<TopicDescription> describe(ClusterSnapshot cluster, List<Node> nodes) {
        Map<String, List<TopicPartitionInfo>> byTopic = new LinkedHashMap<>();
        for (PartitionState p : cluster.partitions()) {
            byTopic.computeIfAbsent(p.id().topic(), t -> new ArrayList<>())
                    .add(new TopicPartitionInfo(
                            p.id().partition(),
                            p.hasLeader() ? nodes.get(p.leader()) : null,
                            nodesOf(p.replicas(), nodes),
                            nodesOf(p.isr(), nodes),
                            List.of(),
                            List.of()));
        }
        List<TopicDescription> out = new ArrayList<>();
        byTopic.forEach((topic, parts) -> out.add(new TopicDescription(topic, false, parts)));
        return out;
    }

    private static List<Node> nodesOf(int[] ids, List<Node> nodes) {
        List<Node> out = new ArrayList<>(ids.length);
        for (int id : ids) {
            out.add(nodes.get(id));
        }
        return out;
    }

    /** The size of the DescribeTopicPartitions responses (version 0) that carry these topics, as Kafka writes them. */
    static long wireBytes(List<TopicDescription> topics) {
        DescribeTopicPartitionsResponseData data = new DescribeTopicPartitionsResponseData();
        for (TopicDescription t : topics) {
            DescribeTopicPartitionsResponseData.DescribeTopicPartitionsResponseTopic topic =
                    new DescribeTopicPartitionsResponseData.DescribeTopicPartitionsResponseTopic()
                            .setName(t.name())
                            .setTopicId(Uuid.randomUuid());
            for (TopicPartitionInfo p : t.partitions()) {
                topic.partitions()
                        .add(new DescribeTopicPartitionsResponseData.DescribeTopicPartitionsResponsePartition()
                                .setPartitionIndex(p.partition())
                                .setLeaderId(
                                        p.leader() == null ? -1 : p.leader().id())
                                .setLeaderEpoch(1)
                                .setReplicaNodes(ids(p.replicas()))
                                .setIsrNodes(ids(p.isr())));
            }
            data.topics().add(topic);
        }
        return data.size(new ObjectSerializationCache(), (short) 0);
    }

    private static List<Integer> ids(List<Node> nodes) {
        return nodes.stream().map(Node::id).toList();
    }
}
