/**
 * The compatibility matrix: the agent's core story on real KRaft clusters of every tested Kafka version, each run as
 * separate processes from that version's own jars (copied by the {@code compat/servers} modules), and the refusal
 * of a ZooKeeper-mode cluster on a real Kafka 3.9.1.
 *
 * <p>Why a module of its own: no Kafka server jar may be on the class path of the JVM that runs the agent (each
 * cluster must run only its own version's jars), and the matrix needs every version's jars at build time.
 */
package io.leaderpacer.compat;
