package io.leaderpacer.simulator.model;

/**
 * Where one tick's request latencies go (the simulation's recorder), with what the figures per class need: the leader the
 * requests went to, whether the partition is "protected" (its preferred leader is a restarted broker) and the role
 * a restarted broker plays in its write path.
 */
public interface LatencySink {

    /** Requests (in thousandths) to partitions whose mean latency is {@code meanMs}. */
    void recordMean(double meanMs, long milliRequests, int leader, boolean protectedClass, RestartedRole role);

    /** Requests (in thousandths) that wait exactly {@code latencyMs}; {@code leader} -1 when there is none. */
    void recordExact(double latencyMs, long milliRequests, int leader, boolean protectedClass, RestartedRole role);

    /** Both sinks, in this order. */
    static LatencySink both(LatencySink first, LatencySink second) {
        return new LatencySink() {
            @Override
            public void recordMean(
                    double meanMs, long milliRequests, int leader, boolean protectedClass, RestartedRole role) {
                first.recordMean(meanMs, milliRequests, leader, protectedClass, role);
                second.recordMean(meanMs, milliRequests, leader, protectedClass, role);
            }

            @Override
            public void recordExact(
                    double latencyMs, long milliRequests, int leader, boolean protectedClass, RestartedRole role) {
                first.recordExact(latencyMs, milliRequests, leader, protectedClass, role);
                second.recordExact(latencyMs, milliRequests, leader, protectedClass, role);
            }
        };
    }
}
