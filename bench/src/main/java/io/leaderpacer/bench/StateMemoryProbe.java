package io.leaderpacer.bench;

import io.leaderpacer.engine.cluster.ClusterSnapshot;
import io.leaderpacer.engine.cluster.ClusterState;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;

/**
 * What the engine's structures cost in memory beyond the caller's own partition objects: heap in use after full
 * collections, before and after building a {@link ClusterState} (and, for comparison, a {@link ClusterSnapshot})
 * over the partitions of {@link RecoveringCluster#ofPartitions}. Not a JMH benchmark: a heap figure, printed as
 * bytes per partition.
 *
 * <p>Run: {@code java -Xmx6g -cp bench/target/benchmarks.jar io.leaderpacer.bench.StateMemoryProbe [partitions]}.
 */
public final class StateMemoryProbe {

    private StateMemoryProbe() {}

    public static void main(String[] args) throws InterruptedException {
        int partitions = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        ClusterSnapshot caller = RecoveringCluster.ofPartitions(partitions).build();
        long base = usedAfterGc();
        ClusterState state = ClusterState.of(caller);
        long withState = usedAfterGc();
        ClusterSnapshot snapshot = ClusterSnapshot.builder()
                .brokers(caller.brokers().values())
                .partitions(caller.partitions())
                .build();
        long withSnapshot = usedAfterGc();
        System.out.printf(
                "partitions %d: ClusterState %.1f bytes/partition, ClusterSnapshot %.1f bytes/partition%n",
                partitions, (withState - base) / (double) partitions, (withSnapshot - withState) / (double) partitions);
        // keep everything reachable until measured
        if (state.partitionCount() + snapshot.positionCount() + caller.positionCount() < 0) {
            System.out.println();
        }
    }

    /** Heap in use after full collections: the least of four readings, each after a {@code System.gc()}. */
    static long usedAfterGc() throws InterruptedException {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 4; i++) {
            System.gc();
            Thread.sleep(100);
            used = Math.min(used, memory.getHeapMemoryUsage().getUsed());
        }
        return used;
    }
}
