package io.leaderpacer.loadtest.observe;

/**
 * One run of the agent during a round.
 *
 * @param atMs             when it finished, in milliseconds since the round started
 * @param elected          leaderships it moved (all brokers)
 * @param electedToBroker  of them, to the restarted broker
 * @param gated            whether the engine gated the restarted broker in this run
 * @param failed           whether the run failed (it is retried)
 */
public record AgentRunSample(long atMs, int elected, int electedToBroker, boolean gated, boolean failed) {}
