package io.leaderpacer.agent.core;

/** Where the agent's lifecycle stands; shown by {@code /status} and {@code /healthz}. */
public enum AgentState {
    /** Built, not started. */
    NEW,
    /** Started; contacting the cluster and checking that the controller's own rebalancing is off. */
    STARTING,
    /** Running decisions on the engine's schedule (a single instance, without coordination). */
    RUNNING,
    /** Coordinated: another instance is active (or none yet); this one waits in the group and sends nothing. */
    STANDBY,
    /** Coordinated: this is the group's one active instance; it runs on the engine's schedule. */
    ACTIVE,
    /** Refused to run: the brokers have {@code auto.leader.rebalance.enable=true} (or the check itself was refused). */
    REFUSED,
    /** Closed. */
    STOPPED
}
