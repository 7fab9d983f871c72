package io.leaderpacer.simulator.pacing;

import io.leaderpacer.simulator.latency.LatencyHistogram;
import io.leaderpacer.simulator.model.LatencySink;
import io.leaderpacer.simulator.model.RestartedRole;

import java.util.Arrays;
import java.util.OptionalDouble;

/**
 * The adaptive pacer's health signal as the model gives it: the P99 of acks=all sends to partitions where a restarted
 * broker is an in-sync follower, over the last {@value #SECONDS} s, over the P99 of the same sends in the steady phase.
 *
 * <p>Why that population: those are the writes a recovering broker's catch-up slows whoever leads them, the ones
 * pacing exists for, and a canary producer on such partitions is what the agent can measure on unmodified Kafka. The
 * model files sends by the role of any restarted broker, so with several restarted brokers at once they share one
 * canary.
 */
public final class PacingCanary implements LatencySink {

    /** The canary's look-back. */
    static final int SECONDS = 5;

    private final double sigma;
    private final long steadyEndMs;
    private final LatencyHistogram steady = new LatencyHistogram();
    /** One histogram per second of the look-back, as a ring indexed by the second. */
    private final LatencyHistogram[] recent = new LatencyHistogram[SECONDS];
    /** The second each ring slot holds, or Long.MIN_VALUE. */
    private final long[] secondOf = new long[SECONDS];

    private final LatencyHistogram merged = new LatencyHistogram();
    private long tickMs;
    private LatencyHistogram current;
    /** The steady P99, once the steady phase is over (NaN before). */
    private double reference = Double.NaN;

    /**
     * @param sigma       the model's latency spread (for the P99 of a mixture)
     * @param steadyEndMs the end of the steady phase: sends before it are the reference
     */
    public PacingCanary(double sigma, long steadyEndMs) {
        this.sigma = sigma;
        this.steadyEndMs = steadyEndMs;
        for (int i = 0; i < SECONDS; i++) {
            recent[i] = new LatencyHistogram();
        }
        Arrays.fill(secondOf, Long.MIN_VALUE);
    }

    /** The next sends belong to the tick starting at {@code nowMs}. */
    public void beginTick(long nowMs) {
        tickMs = nowMs;
        long second = Math.floorDiv(nowMs, 1000L);
        int i = (int) Math.floorMod(second, (long) SECONDS);
        if (secondOf[i] != second) {
            recent[i].reset();
            secondOf[i] = second;
        }
        current = recent[i];
    }

    @Override
    public void recordMean(double meanMs, long milliRequests, int leader, boolean protectedClass, RestartedRole role) {
        if (role != RestartedRole.IN_SYNC_FOLLOWER || current == null) {
            return;
        }
        if (tickMs < steadyEndMs) {
            steady.recordMean(meanMs, milliRequests);
        }
        current.recordMean(meanMs, milliRequests);
    }

    @Override
    public void recordExact(
            double latencyMs, long milliRequests, int leader, boolean protectedClass, RestartedRole role) {
        if (role != RestartedRole.IN_SYNC_FOLLOWER || current == null) {
            return;
        }
        if (tickMs < steadyEndMs) {
            steady.recordExact(latencyMs, milliRequests);
        }
        current.recordExact(latencyMs, milliRequests);
    }

    /** The canary's P99 over the last {@value #SECONDS} s before {@code nowMs} over its steady P99; empty without sends. */
    public OptionalDouble ratio(long nowMs) {
        long last = Math.floorDiv(nowMs - 1, 1000L);
        merged.reset();
        for (int i = 0; i < SECONDS; i++) {
            if (secondOf[i] != Long.MIN_VALUE && secondOf[i] > last - SECONDS && secondOf[i] <= last) {
                merged.add(recent[i]);
            }
        }
        if (merged.isEmpty() || steady.isEmpty()) {
            return OptionalDouble.empty();
        }
        if (Double.isNaN(reference) || nowMs <= steadyEndMs) {
            reference = steady.quantileMs(0.99, sigma);
        }
        return reference > 0 ? OptionalDouble.of(merged.quantileMs(0.99, sigma) / reference) : OptionalDouble.empty();
    }
}
