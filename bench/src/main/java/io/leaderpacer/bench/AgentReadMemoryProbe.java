package io.leaderpacer.bench;

import io.leaderpacer.agent.kafka.ClusterReader;
import io.leaderpacer.engine.cluster.BrokerState;
import io.leaderpacer.engine.cluster.ClusterSnapshot;
import io.leaderpacer.engine.cluster.ClusterState;
import io.leaderpacer.engine.cluster.SnapshotFollower;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Node;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * What the agent's full read holds in memory at its peak, without Kafka: the answers of {@code describeTopics}
 * ({@link TopicDescription}s, as the Admin client hands them over), the snapshot decoded from them, and the state
 * the follower keeps across runs. Heap in use after full collections, printed per partition and in total for the
 * cluster of {@link AgentReadBenchmark} (one recovering broker). Not a JMH benchmark: a heap figure. Run it under
 * the heap the agent would get, e.g. {@code -Xmx1g}: an {@code OutOfMemoryError} is the answer too.
 *
 * <p>Run: {@code java -Xmx1g -cp bench/target/benchmarks.jar io.leaderpacer.bench.AgentReadMemoryProbe [partitions]
 * [brokers]}.
 */
public final class AgentReadMemoryProbe {

    private AgentReadMemoryProbe() {}

    public static void main(String[] args) throws InterruptedException {
        int partitions = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        int brokers = args.length > 1 ? Integer.parseInt(args[1]) : 1_000;
        long base = StateMemoryProbe.usedAfterGc();
        List<Node> nodes = new ArrayList<>();
        List<TopicDescription> answers = answers(partitions, brokers, nodes);
        long withAnswers = StateMemoryProbe.usedAfterGc();
        ClusterSnapshot snapshot = ClusterReader.snapshotOf(nodes, Set.of(), answers);
        long withSnapshot = StateMemoryProbe.usedAfterGc();
        SnapshotFollower follower = new SnapshotFollower();
        ClusterState state = follower.follow(snapshot);
        long withState = StateMemoryProbe.usedAfterGc();
        System.out.printf(
                "%d partitions on %d brokers, heap in use after full collections: answers %.0f MB (%.0f B per"
                        + " partition), decoded snapshot %.0f MB (%.0f B), followed state %.0f MB (%.0f B);"
                        + " all three at once %.0f MB; max heap %.0f MB%n",
                partitions,
                brokers,
                mb(withAnswers - base),
                per(withAnswers - base, partitions),
                mb(withSnapshot - withAnswers),
                per(withSnapshot - withAnswers, partitions),
                mb(withState - withSnapshot),
                per(withState - withSnapshot, partitions),
                mb(withState - base),
                mb(Runtime.getRuntime().maxMemory()));
        // keep everything reachable until measured
        if (answers.size() + snapshot.positionCount() + state.partitionCount() < 0) {
            System.out.println();
        }
    }

    /** The answers for the cluster, which is dropped: only what the Admin client would hand over stays reachable. */
    private static List<TopicDescription> answers(int partitions, int brokers, List<Node> nodes) {
        ClusterSnapshot cluster = new RecoveringCluster(brokers, partitions, partitions / brokers, 1).build();
        for (BrokerState b : cluster.brokers().values()) {
            nodes.add(new Node(b.id(), "broker-" + b.id(), 9092));
        }
        return AgentReadBenchmark.describe(cluster, nodes);
    }

    private static double mb(long bytes) {
        return bytes / 1e6;
    }

    private static double per(long bytes, int partitions) {
        return bytes / (double) partitions;
    }
}
