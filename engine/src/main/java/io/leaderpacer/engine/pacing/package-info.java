/**
 * Catch-up pacing's rule: how fast a recovering broker may fetch what it missed, decided from what the agent
 * observes, as a value.
 *
 * <p>Why in the engine: it is policy, not I/O. The agent reads the signals (whether a broker is up, its bytes
 * behind, what the canary's producers feel) and applies the decided rates with Kafka's replication throttles; the
 * simulator runs the same rule against its model. As with the election task, the rule is a pure function of the
 * signals, the settings, the time passed in and the previous decision's memory: {@link CatchUpPacer#decide}.
 */
package io.leaderpacer.engine.pacing;
