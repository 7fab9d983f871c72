package io.leaderpacer.simulator.sim;

import java.util.SplittableRandom;

/**
 * Every random number of a simulation comes from here, derived from its one seed and the name of
 * what it is for. Named streams keep concerns independent: drawing one more number for the
 * workload does not shift the controller's phase, so changing one model part changes only its
 * own randomness.
 */
public final class RandomStreams {

    private final long seed;

    public RandomStreams(long seed) {
        this.seed = seed;
    }

    public long seed() {
        return seed;
    }

    /** A fresh generator for a named purpose; the same seed and name always give the same numbers. */
    public SplittableRandom stream(String name) {
        // String.hashCode is specified by the JLS, so this is identical on every JVM.
        return new SplittableRandom(mix(seed ^ mix(name.hashCode() * 0x9E3779B97F4A7C15L)));
    }

    /** SplitMix64's finaliser: spreads nearby seeds over the whole range. */
    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
