package io.leaderpacer.simulator.model;

/** Where one tick's request latencies go (the run's recorder). */
public interface LatencySink {

    /** Requests (in thousandths) to partitions whose mean latency is {@code meanMs}. */
    void recordMean(double meanMs, long milliRequests);

    /** Requests (in thousandths) that wait exactly {@code latencyMs}. */
    void recordExact(double latencyMs, long milliRequests);
}
