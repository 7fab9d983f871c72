/**
 * The scenario format: what a scenario file may say (cluster, topics, events, physics, policies)
 * and the strict loader that turns YAML into an immutable {@link io.leaderpacer.simulator.scenario.Scenario}.
 *
 * <p>Why strict: a simulator that silently ignores a misspelt field simulates something else and
 * reports it with confidence. Every problem is reported with the file, the field and what is
 * allowed, before anything runs.
 */
package io.leaderpacer.simulator.scenario;
