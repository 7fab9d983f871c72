package io.leaderpacer.loadtest.probe;

/**
 * One look at the restarted broker while it catches up on the probe's topic.
 *
 * @param atMs        since the broker was started again
 * @param hostedBytes the bytes of the topic's replicas in its log directories, -1 when it did not answer
 * @param inIsr       the topic's partitions whose ISR holds it
 */
public record CatchUpSample(long atMs, long hostedBytes, int inIsr) {}
