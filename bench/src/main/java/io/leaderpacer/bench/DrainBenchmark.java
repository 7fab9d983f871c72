package io.leaderpacer.bench;

import io.leaderpacer.engine.BalancerMemory;
import io.leaderpacer.engine.Election;
import io.leaderpacer.engine.ElectionDecision;
import io.leaderpacer.engine.PreferredLeaderBalancer;
import io.leaderpacer.engine.cluster.ClusterSnapshot;
import io.leaderpacer.engine.cluster.ClusterState;
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

import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Draining {@link RecoveringCluster#ofPartitions} (200,000 imbalanced partitions at a million) at max.per.run 1000:
 * run after run until a run reports no more work, each run's elections replayed before the next, by Kafka's own
 * controller (its records into its state) and by the engine's incremental path (its elections into its
 * {@link ClusterState}). Fresh state per invocation; one invocation is one whole drain.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms6g", "-Xmx6g"})
@Warmup(iterations = 2)
@Measurement(iterations = 3)
public class DrainBenchmark {

    @Param({"1000000"})
    public int partitions;

    private ClusterSnapshot cluster;
    private KafkaControllerReference kafka;
    private ClusterState state;
    private final PacerConfig immediate = PacerConfig.fromMap(Map.of(ConfigKey.MAX_PER_RUN.key(), "1000"));

    @Setup(Level.Trial)
    public void build() {
        cluster = RecoveringCluster.ofPartitions(partitions).build();
    }

    @Setup(Level.Invocation)
    public void load() {
        kafka = KafkaControllerReference.load(cluster, 1000, false);
        state = ClusterState.of(cluster);
    }

    @Benchmark
    public int kafka() {
        int runs = 0;
        while (kafka.run(false).moreWork()) {
            runs++;
        }
        return runs;
    }

    @Benchmark
    public int engineIncremental() {
        int runs = 0;
        BalancerMemory memory = BalancerMemory.empty();
        for (boolean more = true; more; runs++) {
            ElectionDecision d = PreferredLeaderBalancer.decide(state, immediate, memory, runs);
            for (Election e : d.elections()) {
                state.replay(state.partition(e.partition()).withLeader(e.newLeader()));
            }
            memory = d.nextMemory();
            more = d.moreWork();
        }
        return runs;
    }
}
