package io.leaderpacer.simulator.model;

import java.util.SplittableRandom;

/**
 * Kafka's rack-unaware replica placement for one topic, as the simulator models it: partition
 * {@code i}'s first replica is on broker {@code (start + i) mod n}; its follower at position
 * {@code j >= 1} is {@code 1 + (shift + round + j - 1) mod (n - 1)} brokers further on, where
 * {@code round = i / n} counts how often the partition number has wrapped around the brokers.
 *
 * <p>Why: this is the rule of Kafka's {@code AdminUtils} rack-unaware assignment (the followers'
 * shift grows by one per wrap), which spreads the followers of the partitions a broker leads over
 * every other broker once a topic has {@code n (n - 1)} partitions, so a restarted broker's
 * leadership moves to the whole cluster instead of one neighbour. Kafka draws {@code start} and
 * {@code shift} at random per topic; the simulator draws them from the simulation's seed
 * ({@link #drawn}), so a simulation replays exactly.
 *
 * @param brokers broker count {@code n} (ids 0..n-1)
 * @param start   broker of partition 0's first replica, in {@code [0, n)}
 * @param shift   the followers' shift in the first round, in {@code [0, n)}
 */
public record StripedPlacement(int brokers, int start, int shift) {

    public StripedPlacement {
        if (brokers < 1 || start < 0 || start >= brokers || shift < 0 || shift >= brokers) {
            throw new IllegalArgumentException("striped placement needs 0 <= start, shift < brokers; got brokers "
                    + brokers + ", start " + start + ", shift " + shift);
        }
    }

    /** A topic's placement with start and shift drawn, in that order, from {@code random}. */
    public static StripedPlacement drawn(int brokers, SplittableRandom random) {
        int start = random.nextInt(brokers);
        int shift = random.nextInt(brokers);
        return new StripedPlacement(brokers, start, shift);
    }

    /**
     * The broker of a partition's replica at a position of its assignment (0 = the preferred leader).
     * Positions {@code 0..n-1} of one partition are distinct brokers.
     */
    public int broker(int partition, int position) {
        long first = (start + (long) partition) % brokers;
        if (position == 0) {
            return (int) first;
        }
        long round = partition / brokers;
        long offset = 1 + (shift + round + position - 1) % (brokers - 1);
        return (int) ((first + offset) % brokers);
    }
}
