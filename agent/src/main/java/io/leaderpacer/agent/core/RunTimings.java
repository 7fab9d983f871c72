package io.leaderpacer.agent.core;

/**
 * How long each phase of a run took, in nanoseconds (0 for a phase that did not happen).
 *
 * <p>Why: the agent's cost is dominated by reading metadata and by the election round trip, not by the
 * engine; keeping the phases apart shows which one to tune ({@code pacer.describe.batch.topics}, cap size).
 *
 * @param readNanos   describeCluster + listTopics + describeTopics + listPartitionReassignments
 * @param orderNanos  the {@link ReplicaOrderStep} (KIP-491 reorders)
 * @param decideNanos the engine's decision
 * @param electNanos  electLeaders, all batches
 * @param partialRead whether the read described only a re-check's scope ({@link io.leaderpacer.engine.cluster.ReadScope})
 *                    instead of every topic
 */
public record RunTimings(long readNanos, long orderNanos, long decideNanos, long electNanos, boolean partialRead) {

    public static final RunTimings NONE = new RunTimings(0, 0, 0, 0, false);

    public long totalNanos() {
        return readNanos + orderNanos + decideNanos + electNanos;
    }

    public double totalMillis() {
        return totalNanos() / 1e6;
    }
}
