/**
 * What the project's two local Kafka clusters and its load test share.
 *
 * <p>Why a module of its own: the in-JVM cluster ({@code embedded}) brings Kafka's test kit and server with it, and
 * the process cluster ({@code cluster}) must stay a plain launcher that runs any Kafka version from that version's
 * jars, so neither can depend on the other; the load test may depend on neither's server classes either. The pieces
 * they have in common live here, once: the server settings that suit a small cluster on a small machine
 * ({@link io.leaderpacer.testbed.ServerDefaults}), a TLS store and its password
 * ({@link io.leaderpacer.testbed.KeyStoreFile}), and a producer that writes at a steady pace and reports every
 * send's latency ({@link io.leaderpacer.testbed.PacedLoad}). Only Kafka's client is needed.
 */
package io.leaderpacer.testbed;
