/**
 * The modelled cluster: static layout, controller metadata, follower catch-up, broker
 * utilisation and the produce-latency formula, with partitions grouped by what their latency
 * depends on.
 *
 * <p>Why this shape: a million partitions for simulated hours cannot be simulated request by
 * request. State lives in primitive arrays; load and latency are evaluated once per tick from
 * per-broker terms; partitions with the same leader and in-sync followers share one latency
 * computation. Every formula is written in the class that applies it and in docs/SIMULATOR.md.
 */
package io.leaderpacer.simulator.model;
