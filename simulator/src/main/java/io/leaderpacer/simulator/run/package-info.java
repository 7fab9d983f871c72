/**
 * Running scenarios: one {@link io.leaderpacer.simulator.run.Simulation} per policy and seed, the
 * measurements it records, and the verdict against KIP-1358's three acceptance criteria.
 *
 * <p>Why simulations are independent objects: a simulation owns its clock, its random streams and its
 * cluster, so simulations can never influence each other, the same inputs always give the same outcome,
 * and several simulations could go on different threads if the machine allows. (A "run" is one run of the
 * modelled controller's preferred-leader task, as in Kafka.)
 */
package io.leaderpacer.simulator.run;
