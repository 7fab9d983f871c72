/**
 * KIP-491's deprioritized list on a real Kafka cluster, which has no such list.
 *
 * <p>Why this package exists: the controller picks {@code replicas[0]} as the preferred leader, so the only way
 * to make a deprioritized broker stop being preferred on an unmodified cluster is to change the replica order
 * itself. The agent does that with reorder-only partition reassignments (same replica set, deprioritized brokers
 * last): Kafka completes them at once, moves no data and no leader, and the paced preferred elections then move
 * leadership. Because the order is the operator's data, every original order is written first (write-ahead) to a
 * compacted topic of the agent's own, and restored exactly when the broker leaves the list, even after the agent
 * restarted or crashed half-way.
 *
 * <p>The deciding part ({@link io.leaderpacer.agent.reorder.ReorderPlanner}) is a pure function of the snapshot,
 * the list and the stored records, so the crash cases can be reasoned about and tested without a cluster; the
 * Kafka calls live in the port {@link io.leaderpacer.agent.kafka.ReorderReassignments} and
 * {@link io.leaderpacer.agent.reorder.OrderStateStore}, and
 * {@link io.leaderpacer.agent.reorder.DeprioritizedOrderStep} sequences them.
 *
 * <p>Layer: a feature, on {@code core}, {@code config} and the ports only; it never imports another feature. The run
 * cycle calls it as a {@link io.leaderpacer.agent.core.ReplicaOrderStep}; it shares the state topic with the other
 * features through {@link io.leaderpacer.agent.core.StateTopic}.
 */
package io.leaderpacer.agent.reorder;
