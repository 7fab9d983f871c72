package io.leaderpacer.bench;

import io.leaderpacer.engine.BalancerMemory;
import io.leaderpacer.engine.ElectionDecision;
import io.leaderpacer.engine.PreferredLeaderBalancer;
import io.leaderpacer.engine.cluster.ClusterSnapshot;
import io.leaderpacer.engine.config.ConfigKey;
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

import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One run of {@link PreferredLeaderBalancer#decide} over a large cluster in mid-recovery
 * ({@link RecoveringCluster#ofPartitions}: 1,000 brokers, a fifth of the partitions imbalanced
 * across 200 recovering brokers, 50 of them gated), as the controller would make it every check
 * interval or throttle interval.
 *
 * <p>The snapshot is built and validated once per trial in {@link #buildSnapshot()}; the memory
 * passed in is the one a previous run over the same snapshot left, so the gate is in its steady
 * mid-recovery state. Only {@code decide} is measured.
 *
 * <p>Warm-up is ten seconds: on a loaded two-core machine the JIT needs about six before
 * {@code decide} runs compiled, and the goal is about the compiled figure.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms3g", "-Xmx3g"})
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 2)
public class PreferredLeaderBalancerBenchmark {

    /** Number of partitions; the goal compares 1,000,000 with 100,000. */
    @Param({"100000", "1000000"})
    public int partitions;

    /** The snapshot, built once per trial: construction is not what is measured. */
    private ClusterSnapshot cluster;
    /** wait-for-sync, threshold 5 %, round-robin, cap 1000, throttle 15 s: KIP-1358's recovery settings. */
    private PacerConfig waitForSync;
    /** Kafka's behaviour today, for comparison. */
    private PacerConfig immediate;
    /** The gate's memory after one earlier run over the same snapshot. */
    private BalancerMemory memory;

    @Setup(Level.Trial)
    public void buildSnapshot() {
        cluster = RecoveringCluster.ofPartitions(partitions).build();
        waitForSync = PacerConfig.fromMap(Map.of(
                ConfigKey.ALGORITHM.key(), "wait-for-sync",
                ConfigKey.THRESHOLD_PERCENT.key(), "5",
                ConfigKey.THROTTLE_INTERVAL_MS.key(), "15000"));
        immediate = PacerConfig.defaults();
        memory = PreferredLeaderBalancer.decide(cluster, waitForSync, BalancerMemory.empty(), 0)
                .nextMemory();
    }

    /** The goal's figure: wait-for-sync with round-robin, several brokers recovering, some gated. */
    @Benchmark
    public ElectionDecision waitForSync() {
        return PreferredLeaderBalancer.decide(cluster, waitForSync, memory, 15_000);
    }

    /** The legacy path over the same snapshot. */
    @Benchmark
    public ElectionDecision immediate() {
        return PreferredLeaderBalancer.decide(cluster, immediate, BalancerMemory.empty(), 15_000);
    }
}
