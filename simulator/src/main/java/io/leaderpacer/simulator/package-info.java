/**
 * A deterministic discrete-event simulator of a KRaft cluster going through broker recovery,
 * which runs the Leader Pacer engine exactly as the controller would and measures what producers
 * feel: P99 produce latency, time-outs and recovery time, policy against policy.
 *
 * <p>Why a simulator: KIP-1358's load test needs a cluster with 10,000+ partitions on one broker
 * and hours of steady traffic; nobody runs that on every change, and nobody can compare five
 * policies on it side by side. {@link io.leaderpacer.simulator.SimulateCommand} is the entry point
 * ({@code pacer simulate}); the model and its calibration are documented in docs/SIMULATOR.md.
 */
package io.leaderpacer.simulator;
