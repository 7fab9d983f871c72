/**
 * One active agent instance among several, with Kafka itself as the coordinator.
 *
 * <p>Why: an agent that moves leadership must never act twice at once, yet a single process is a single point
 * of failure. Every instance joins one consumer group on the agent's single-partition state topic; the member
 * assigned its partition is the active instance and the others are standbys. Group membership alone cannot stop
 * a paused or partitioned process that still believes it is active, so every write to the state topic, and a
 * fresh confirmation before every Admin mutation, goes through one transactional producer whose
 * {@code transactional.id} is shared by all instances: a new active instance's {@code initTransactions()} fences
 * its predecessor, and each transaction also commits the group's offset, which Kafka accepts only from a member of
 * the current generation (KIP-447). A deposed instance therefore cannot write, and cannot act for longer than the
 * confirmation's lifetime, which its successor waits out before its own first action.
 *
 * <p>Layer: a feature, on {@code core}, {@code config} and the ports only; it never imports another feature. It
 * guards the others' mutations through {@link io.leaderpacer.agent.core.ActionGuard}, which the assembly hands them.
 */
package io.leaderpacer.agent.coordination;
