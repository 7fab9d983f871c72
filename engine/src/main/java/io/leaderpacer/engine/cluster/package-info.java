/**
 * The cluster the engine decides from: brokers with their liveness, and partitions with their replica
 * assignment, ISR, ELR and leader; as an immutable {@code ClusterSnapshot} built from a full read, or as a
 * {@code ClusterState} kept up to date by replaying changes, as the controller keeps its own. Both are read
 * through {@code ClusterView}, by position and by compact broker index ({@code BrokerIndex}): an id may be any
 * {@code node.id} up to 2^31-1. The state also files its candidates ({@code CandidateIndex}: per-broker
 * buckets, per-leader bags, the walk of candidates worth examining) so that a run over it costs what it elects or
 * must look at.
 *
 * <p>A snapshot is what the KRaft controller holds in its metadata image at the moment the
 * periodic preferred-leader task runs, or what the agent read through the Admin API. It is
 * validated when built, so that a malformed input fails loudly, naming the partition, instead of
 * producing a wrong election.
 */
package io.leaderpacer.engine.cluster;
