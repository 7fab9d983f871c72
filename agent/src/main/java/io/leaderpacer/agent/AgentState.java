package io.leaderpacer.agent;

/** Where the agent's lifecycle stands; shown by {@code /status} and {@code /healthz}. */
public enum AgentState {
    /** Built, not started. */
    NEW,
    /** Started; contacting the cluster and checking that the controller's own rebalancing is off. */
    STARTING,
    /** Running decisions on the engine's schedule. */
    RUNNING,
    /** Refused to run: the brokers have {@code auto.leader.rebalance.enable=true} (or the check itself was refused). */
    REFUSED,
    /** Closed. */
    STOPPED
}
