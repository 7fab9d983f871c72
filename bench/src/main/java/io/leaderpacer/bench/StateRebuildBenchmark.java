package io.leaderpacer.bench;

import io.leaderpacer.engine.cluster.BrokerState;
import io.leaderpacer.engine.cluster.ClusterSnapshot;
import io.leaderpacer.engine.cluster.ClusterState;
import io.leaderpacer.engine.cluster.PartitionState;
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
 * A full rebuild of the incremental {@link ClusterState} from the caller's brokers and partitions (every
 * partition replayed once, as after a controller failover or a caller's first full read), and from an already
 * built {@link ClusterSnapshot} ({@link ClusterState#of}). The cluster is {@link RecoveringCluster#ofPartitions}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms6g", "-Xmx6g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 3, time = 2)
public class StateRebuildBenchmark {

    @Param({"100000", "1000000"})
    public int partitions;

    private List<BrokerState> brokers;
    private List<PartitionState> partitionList;
    private ClusterSnapshot snapshot;

    @Setup(Level.Trial)
    public void prepare() {
        snapshot = RecoveringCluster.ofPartitions(partitions).build();
        brokers = new ArrayList<>(snapshot.brokers().values());
        partitionList = new ArrayList<>(snapshot.partitions());
    }

    /** Every broker and partition replayed into a fresh state. */
    @Benchmark
    public ClusterState replayAll() {
        ClusterState s = new ClusterState();
        brokers.forEach(s::replay);
        partitionList.forEach(s::replay);
        return s;
    }

    /** The state of an already built snapshot. */
    @Benchmark
    public ClusterState ofSnapshot() {
        return ClusterState.of(snapshot);
    }
}
