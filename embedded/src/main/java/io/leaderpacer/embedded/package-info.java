/**
 * A real KRaft Kafka cluster inside the JVM (the steady load to put on it is the {@code testbed} module's
 * {@code PacedLoad}).
 *
 * <p>Why: the agent's tests and {@code pacer demo} must run against Kafka's own server code (no mocks) and
 * need nothing installed but Java and Maven. Kafka's internal test kit ({@code KafkaClusterTestKit}) can do
 * that, but it is an internal API, so only {@link io.leaderpacer.embedded.EmbeddedKafkaCluster} and its two
 * companions for a secured cluster ({@code SaslScramSetup}, {@link io.leaderpacer.embedded.AccessControl})
 * touch it; everyone else uses their small, stable API. The cluster class also encodes what was learned the
 * hard way about the kit (separate controller, data on tmpfs, short broker session timeout for restarts). Kafka's
 * replication throttles are set through the agent module's {@code io.leaderpacer.agent.throttle}, with the Admin
 * client like any other cluster's.
 */
package io.leaderpacer.embedded;
