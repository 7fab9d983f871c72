package io.leaderpacer.bench;

import io.leaderpacer.engine.BalancerMemory;
import io.leaderpacer.engine.ElectionDecision;
import io.leaderpacer.engine.PreferredLeaderBalancer;
import io.leaderpacer.engine.cluster.BrokerState;
import io.leaderpacer.engine.cluster.ClusterSnapshot;
import io.leaderpacer.engine.cluster.PartitionState;
import io.leaderpacer.engine.config.PacerConfig;
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
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A full rebuild: building and validating a {@link ClusterSnapshot} from the caller's brokers and partitions (what
 * a caller with only a full snapshot pays every run), alone and followed by an {@code immediate} run. The
 * cluster is {@link RecoveringCluster#ofPartitions}. It uses only the snapshot builder's long-standing API, so the
 * same class measures an older engine for a before/after comparison.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms6g", "-Xmx6g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 3, time = 2)
public class SnapshotBuildBenchmark {

    @Param({"100000", "1000000"})
    public int partitions;

    private List<BrokerState> brokers;
    private List<PartitionState> partitionList;
    private PacerConfig immediate;

    @Setup(Level.Trial)
    public void prepare() {
        ClusterSnapshot cluster = RecoveringCluster.ofPartitions(partitions).build();
        brokers = new ArrayList<>(cluster.brokers().values());
        partitionList = new ArrayList<>(cluster.partitions());
        immediate = PacerConfig.defaults();
    }

    @Benchmark
    public ClusterSnapshot build() {
        return ClusterSnapshot.builder()
                .brokers(brokers)
                .partitions(partitionList)
                .build();
    }

    @Benchmark
    public ElectionDecision buildAndImmediate() {
        return PreferredLeaderBalancer.decide(build(), immediate, BalancerMemory.empty(), 15_000);
    }
}
