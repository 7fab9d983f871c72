package io.leaderpacer.simulator.pacing;

import io.leaderpacer.simulator.latency.LatencyHistogram;
import io.leaderpacer.simulator.model.LatencySink;
import io.leaderpacer.simulator.model.RestartedRole;

import java.util.Arrays;
import java.util.OptionalDouble;
import java.util.random.RandomGenerator;

/**
 * The adaptive pacer's health signal as the model gives it: the P99 of acks=all sends to partitions where a restarted
 * broker is an in-sync follower, over the last {@value #SECONDS} s, over the P99 of the same sends in the steady phase.
 *
 * <p>Why that population: those are the writes a recovering broker's catch-up slows whoever leads them, the ones
 * pacing exists for, and a canary producer on such partitions is what the agent can measure on unmodified Kafka. The
 * model files sends by the role of any restarted broker, so with several restarted brokers at once they share one
 * canary.
 *
 * <p><b>A sample, as the agent's.</b> The agent's canary sends {@value #SENDS_PER_SECOND} records a second to each
 * partition of its topic and reads, at each look, the P99 of the sends of the last {@value #SECONDS} s on the
 * partitions where the broker is an in-sync follower: with one canary partition per broker and three replicas, two
 * partitions, {@value #SENDS_PER_LOOK} sends, so its P99 is their second slowest. Against a reference that is the
 * median of such P99s over {@value #STEADY_WINDOWS} steady windows. Under a throttle a few percent of writes wait
 * behind a catch-up response: in the population they set the P99 at every look, in a hundred sends they show at
 * some looks and not at others (measured: evidence run 21's paced looks read 0.3-1.4x and 3-10x in turn), and the
 * adaptive rate rises at the quiet ones. So the canary draws its sends from the look's latencies
 * ({@link LatencyHistogram#sampledQuantileMs}) with its own random stream; {@code sendsPerLook} 0 reads the
 * population instead.
 */
public final class PacingCanary implements LatencySink {

    /** The canary's look-back, as the agent's ({@code Canary.WINDOW_MS}). */
    static final int SECONDS = 5;
    /** The agent's canary sends per partition and second ({@code Canary.SENDS_PER_SECOND}). */
    static final int SENDS_PER_SECOND = 10;
    /**
     * Sends in one look at a broker of a cluster of three or more: two canary partitions (one per broker, three
     * replicas, the broker leads one of its three) over the look-back.
     */
    public static final int SENDS_PER_LOOK = SENDS_PER_SECOND * SECONDS * 2;
    /** Steady windows whose median P99 is the reference, as the agent keeps ({@code Canary.STEADY_WINDOWS}). */
    static final int STEADY_WINDOWS = 30;

    private final double sigma;
    private final long steadyEndMs;
    /** Sends a look reads, 0 for the population's P99. */
    private final int sendsPerLook;
    /** The canary's own draws; null when it reads the population. */
    private final RandomGenerator random;

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
     * A canary that reads the population's P99 (every send of the role).
     *
     * @param sigma       the model's latency spread (for the P99 of a mixture)
     * @param steadyEndMs the end of the steady phase: sends before it are the reference
     */
    public PacingCanary(double sigma, long steadyEndMs) {
        this(sigma, steadyEndMs, 0, null);
    }

    /**
     * @param sendsPerLook the sends a look reads ({@link #SENDS_PER_LOOK} as the agent's), 0 for the population
     * @param random       the canary's own stream (unused when {@code sendsPerLook} is 0)
     */
    public PacingCanary(double sigma, long steadyEndMs, int sendsPerLook, RandomGenerator random) {
        if (sendsPerLook < 0 || (sendsPerLook > 0 && random == null)) {
            throw new IllegalArgumentException("a sampling canary needs sends and a random stream: " + sendsPerLook);
        }
        this.sigma = sigma;
        this.steadyEndMs = steadyEndMs;
        this.sendsPerLook = sendsPerLook;
        this.random = random;
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
            reference = reference();
        }
        double now = sendsPerLook == 0
                ? merged.quantileMs(0.99, sigma)
                : merged.sampledQuantileMs(0.99, sigma, sendsPerLook, random);
        return reference > 0 ? OptionalDouble.of(now / reference) : OptionalDouble.empty();
    }

    /** The steady P99: of the population, or the median of {@value #STEADY_WINDOWS} sampled windows' P99s. */
    private double reference() {
        if (sendsPerLook == 0) {
            return steady.quantileMs(0.99, sigma);
        }
        double[] p99s = new double[STEADY_WINDOWS];
        for (int i = 0; i < STEADY_WINDOWS; i++) {
            p99s[i] = steady.sampledQuantileMs(0.99, sigma, sendsPerLook, random);
        }
        Arrays.sort(p99s);
        return (p99s[STEADY_WINDOWS / 2 - 1] + p99s[STEADY_WINDOWS / 2]) / 2;
    }
}
