/**
 * The immutable cluster snapshot the engine decides from: brokers with their liveness, and
 * partitions with their replica assignment, ISR, ELR and leader.
 *
 * <p>A snapshot is what the KRaft controller holds in its metadata image at the moment the
 * periodic preferred-leader task runs, or what the agent read through the Admin API. It is
 * validated when built, so that a malformed input fails loudly, naming the partition, instead of
 * producing a wrong election.
 */
package io.leaderpacer.engine.cluster;
