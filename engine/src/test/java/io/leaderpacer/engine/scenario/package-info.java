/**
 * Engine-level scenarios from the seed, driven by a scripted clock and scripted ISR re-entry.
 *
 * <p>They sit between the hand-worked unit tests and the simulator: no latency model, no random
 * catch-up, just the controller's loop (decide, apply the elections, wait
 * {@code nextRunDelayMs()}) over thousands of partitions, so the seed's worked example can be
 * checked to the millisecond.
 */
package io.leaderpacer.engine.scenario;
