/**
 * The throttle probe ({@code pacer throttle-probe}): a controlled experiment on a real cluster that measures when a
 * restarted broker enforces Kafka's replication throttles, and at what catch-up rate.
 *
 * <p>Why it exists: catch-up pacing builds on Kafka's follower and leader replication throttles, and two earlier
 * measurements disagreed on whether a restarted broker enforces them at all (one cluster caught up at the set rate,
 * another as fast as with no throttle). Each case sets one way of throttling (which side, which rate scope, which
 * replica lists, set while the broker is up or down, with or without a CPU cap), restarts a broker with a backlog,
 * and measures the bytes it fetched over time; a removal case measures the next catch-up after the throttle is
 * removed, since removal must be verified by a measurement, not assumed from the Admin call's success.
 */
package io.leaderpacer.loadtest.probe;
