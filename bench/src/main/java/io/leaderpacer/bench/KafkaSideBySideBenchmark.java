package io.leaderpacer.bench;

import io.leaderpacer.engine.BalancerMemory;
import io.leaderpacer.engine.ElectionDecision;
import io.leaderpacer.engine.PreferredLeaderBalancer;
import io.leaderpacer.engine.cluster.ClusterSnapshot;
import io.leaderpacer.engine.cluster.ClusterState;
import io.leaderpacer.engine.cluster.PartitionState;
import io.leaderpacer.engine.config.ConfigKey;
import io.leaderpacer.engine.config.PacerConfig;
import org.apache.kafka.controller.KafkaControllerReference;
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
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Kafka 4.3.1's own {@code ReplicationControlManager.maybeBalancePartitionLeaders} and the engine, in the same
 * run on the same cluster, so that their ratio comes from one machine state.
 *
 * <p>The cluster is {@link RecoveringCluster#ofPartitions}: 1,000 brokers, replication factor 3, a fifth of the
 * partitions imbalanced. Scenarios: {@code capped} (max.per.run 1000), {@code uncapped} (every one of the
 * 200,000 imbalanced partitions elected in one run) and {@code nothingElectable} (every imbalanced partition's
 * preferred replica is out of its ISR, its leader valid: a run elects nothing and must still look). Kafka's
 * state is loaded once per trial through its own replay of broker, topic and partition records; its run is
 * measured without replaying its records, so every invocation sees the same state, as the engine's does.
 *
 * <p>{@code engineBuildAndImmediate} includes building and validating the {@link ClusterSnapshot} from the
 * caller's partition list: the cost of a caller that only has a full snapshot.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms6g", "-Xmx6g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 3, time = 2)
public class KafkaSideBySideBenchmark {

    @Param({"1000000"})
    public int partitions;

    @Param({"capped", "uncapped", "nothingElectable"})
    public String scenario;

    /** The caller's partitions, for the build benchmarks. */
    private List<PartitionState> partitionList;
    /** The snapshot the engine decides over. */
    private ClusterSnapshot cluster;
    /** The same cluster as incremental state, kept as the controller keeps its own. */
    private ClusterState state;
    /** Two versions of one partition, replayed in turn by {@link #engineApplyOnePartitionChange}. */
    private PartitionState[] flip;

    private int flipTurn;
    /** Kafka's controller state, loaded from the same snapshot. */
    private KafkaControllerReference kafka;

    private PacerConfig immediate;
    private PacerConfig waitForSync;
    /** The gate's memory after one earlier run over the same snapshot. */
    private BalancerMemory memory;

    @Setup(Level.Trial)
    public void load() {
        ClusterSnapshot recovering = RecoveringCluster.ofPartitions(partitions).build();
        cluster = scenario.equals("nothingElectable") ? preferredOutOfSync(recovering) : recovering;
        partitionList = new ArrayList<>(cluster.partitions());
        int cap = scenario.equals("uncapped") ? partitions : 1000;
        kafka = KafkaControllerReference.load(cluster, cap, false);
        immediate = PacerConfig.fromMap(Map.of(ConfigKey.MAX_PER_RUN.key(), Integer.toString(cap)));
        waitForSync = immediate.withUpdates(Map.of(
                ConfigKey.ALGORITHM.key(),
                "wait-for-sync",
                ConfigKey.THRESHOLD_PERCENT.key(),
                scenario.equals("nothingElectable") ? "100" : "5"));
        memory = PreferredLeaderBalancer.decide(cluster, waitForSync, BalancerMemory.empty(), 0)
                .nextMemory();
        state = ClusterState.of(cluster);
        PartitionState p = cluster.partitions().get(partitions / 2);
        flip = new PartitionState[] {p.withLeader(p.replicaAt(1)), p.withLeader(p.replicaAt(0))};
    }

    /** Every imbalanced partition without its preferred replica in the ISR: nothing to elect, the leader is valid. */
    static ClusterSnapshot preferredOutOfSync(ClusterSnapshot cluster) {
        ClusterSnapshot.Builder b =
                ClusterSnapshot.builder().brokers(cluster.brokers().values());
        for (PartitionState p : cluster.partitions()) {
            if (p.leader() != p.replicaAt(0) && p.isrContains(p.replicaAt(0))) {
                int[] isr =
                        Arrays.stream(p.isr()).filter(r -> r != p.replicaAt(0)).toArray();
                b.partition(p.withIsrAndLeader(isr, p.leader()));
            } else {
                b.partition(p);
            }
        }
        return b.build();
    }

    /** Kafka's run: its real loop over its imbalanced set, with its PREFERRED builder per partition. */
    @Benchmark
    public int kafka() {
        return kafka.decideOnly();
    }

    @Benchmark
    public ElectionDecision engineImmediate() {
        return PreferredLeaderBalancer.decide(cluster, immediate, BalancerMemory.empty(), 15_000);
    }

    @Benchmark
    public ElectionDecision engineWaitForSync() {
        return PreferredLeaderBalancer.decide(cluster, waitForSync, memory, 15_000);
    }

    /** The incremental path: the same run over state kept up to date by replay. */
    @Benchmark
    public ElectionDecision engineIncrementalImmediate() {
        return PreferredLeaderBalancer.decide(state, immediate, BalancerMemory.empty(), 15_000);
    }

    @Benchmark
    public ElectionDecision engineIncrementalWaitForSync() {
        return PreferredLeaderBalancer.decide(state, waitForSync, memory, 15_000);
    }

    /** Replaying one partition change (a leader moving back and forth) into the incremental state. */
    @Benchmark
    @OutputTimeUnit(TimeUnit.NANOSECONDS)
    public ClusterState engineApplyOnePartitionChange() {
        state.replay(flip[flipTurn ^= 1]);
        return state;
    }

    /** A caller with only a full snapshot: build and validate it, then decide. */
    @Benchmark
    public ElectionDecision engineBuildAndImmediate() {
        ClusterSnapshot built = ClusterSnapshot.builder()
                .brokers(cluster.brokers().values())
                .partitions(partitionList)
                .build();
        return PreferredLeaderBalancer.decide(built, immediate, BalancerMemory.empty(), 15_000);
    }
}
