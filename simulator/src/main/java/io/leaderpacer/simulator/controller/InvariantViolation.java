package io.leaderpacer.simulator.controller;

/**
 * A simulation broke a rule that must always hold (a leader outside the ISR, the cap exceeded, an
 * election to a gated broker). The simulation fails with this, naming the time and the partition, and
 * the caller adds the scenario, policy and seed so it can be replayed.
 */
public final class InvariantViolation extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public InvariantViolation(String message) {
        super(message);
    }
}
