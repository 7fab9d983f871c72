/**
 * Running scenarios: one {@link io.leaderpacer.simulator.run.Simulation} per policy and seed, the
 * measurements it records, and the verdict against KIP-1358's three acceptance criteria.
 *
 * <p>Why runs are independent objects: a run owns its clock, its random streams and its cluster,
 * so runs can never influence each other, the same inputs always give the same outcome, and
 * several runs could go on different threads if the machine allows.
 */
package io.leaderpacer.simulator.run;
