/**
 * Engine-level scenarios from KIP-1358, driven by a scripted clock and scripted ISR re-entry.
 *
 * <p>They sit between the hand-worked unit tests and the simulator: no latency model, no random
 * catch-up, just the controller's loop (decide, apply the elections, wait
 * {@code nextRunDelayMs()}) over thousands of partitions, so KIP-1358's worked example can be
 * checked to the millisecond.
 */
package io.leaderpacer.engine.scenario;
