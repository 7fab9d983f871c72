package io.leaderpacer.simulator.controller;

import io.leaderpacer.engine.ElectionDecision;

/** Told about what the controller does, for metrics and the time series. */
public interface RunObserver {

    /** A run of the preferred-leader task decided and applied {@code decision}. */
    void preferredRun(ElectionDecision decision, long nowMs);

    /** Leadership changed outside the periodic task (failover on fencing, shutdown, unfencing). */
    void failoverElections(int count, long nowMs);

    /** The controller failed over; the new one starts from an empty balancer memory. */
    void controllerFailover(long nowMs);
}
