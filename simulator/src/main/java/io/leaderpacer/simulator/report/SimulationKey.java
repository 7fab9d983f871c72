package io.leaderpacer.simulator.report;

/**
 * The first three columns of the simulator's per-policy files: which scenario, policy and seed a row is of. A new
 * summary row replaces an earlier one with the same key.
 */
public record SimulationKey(String scenario, String policy, long seed) {}
