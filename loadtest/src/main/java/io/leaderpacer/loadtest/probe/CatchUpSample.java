package io.leaderpacer.loadtest.probe;

/**
 * One look at the restarted broker while it catches up on the probe's topic.
 *
 * @param atMs        since the broker was started again
 * @param hostedBytes the bytes of the topic's replicas in its log directories, -1 when it did not answer
 * @param inIsr       the topic's partitions whose ISR holds it
 * @param rateBytes   what the throttle in force since the look before let it fetch in all, bytes per second (a
 *                    leader-side rate once per leader); -1 without a throttle
 */
public record CatchUpSample(long atMs, long hostedBytes, int inIsr, long rateBytes) {}
