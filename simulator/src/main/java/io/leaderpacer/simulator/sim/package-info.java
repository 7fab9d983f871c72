/**
 * The simulation's clock and dice: a priority queue of actions on logical time and named random
 * streams derived from one seed.
 *
 * <p>Nothing in the simulator reads a wall clock or an unseeded random source, so the same
 * scenario and seed always produce byte-identical output.
 */
package io.leaderpacer.simulator.sim;
