/**
 * Kafka's replication throttles, set, removed and read through the Admin API.
 *
 * <p>Kafka throttles replication with two pairs of dynamic configurations: a rate in bytes per second on a broker
 * ({@code leader.replication.throttled.rate} for what it sends as a leader, {@code follower.replication.throttled.rate}
 * for what it fetches as a follower), per broker or as the cluster-wide default, and on each topic the list of
 * replicas the rates apply to ({@code leader.replication.throttled.replicas},
 * {@code follower.replication.throttled.replicas}: {@code *} or {@code partition:broker} entries). Replicas in the
 * ISR are never throttled; only catch-up traffic is. Kafka's reassignment tool uses the same settings.
 *
 * <p>Why a package of its own: pacing a recovering broker's catch-up means setting these while the broker comes
 * back and removing them afterwards, and the tests that stage a slow catch-up need the same calls. This package is
 * a thin, faithful wrapper: {@link io.leaderpacer.agent.throttle.ReplicationThrottles} turns each change into
 * Kafka's {@code incrementalAlterConfigs} operations (SET and DELETE; APPEND and SUBTRACT for list entries, so that
 * entries others set stay) and reads back what is in force with {@code describeConfigs}. What to throttle, how much
 * and when is the caller's decision.
 *
 * <p>Two things Kafka does that a caller must know: a change travels through the metadata log, so it is in force on
 * a broker only once that broker reports it (poll {@link io.leaderpacer.agent.throttle.ReplicationThrottles#describe});
 * and a restarting broker applies its own dynamic follower rate only after its replica fetchers have started (Kafka
 * applies dynamic configs after the replica changes of the same metadata publish), so it may fetch part of its
 * backlog unthrottled. A leader rate on the brokers it fetches from is in force before it starts.
 *
 * <p>Layer: a port, depending on no other agent package; catch-up pacing and the tests use it.
 */
package io.leaderpacer.agent.throttle;
