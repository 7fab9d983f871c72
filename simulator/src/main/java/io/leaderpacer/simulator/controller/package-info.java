/**
 * The simulated KRaft controller and the rules it must never break.
 *
 * <p>Why separate from the model: the controller is where the engine runs, exactly as it would in
 * Kafka (snapshot in, decision out, rescheduled by Kafka's periodic-task rules, empty memory
 * after failover), and the invariant checks sit right next to it so that no simulation can report
 * numbers from a cluster that broke them.
 */
package io.leaderpacer.simulator.controller;
