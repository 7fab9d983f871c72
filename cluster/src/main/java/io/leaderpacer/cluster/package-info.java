/**
 * A real KRaft Kafka cluster whose controller and brokers are separate child JVMs, and a CPU quota for one
 * process.
 *
 * <p>Why separate processes: the in-JVM cluster of the {@code embedded} module shares one heap, one set of cores
 * and one process between all brokers, so a broker can neither crash for real ({@code kill -9}) nor be slowed
 * down alone. Here every node is an ordinary {@code kafka.Kafka} process started from a class path (by default the
 * current JVM's), so it can be killed with SIGKILL, stopped with SIGTERM (Kafka's controlled shutdown), restarted
 * on the same ports and data, and put under a CPU cap ({@link io.leaderpacer.cluster.CpuQuota}) while the others
 * run at full speed; {@link io.leaderpacer.cluster.ProcessCpuTime} then says how busy it really was.
 *
 * <p>Every child is recorded by its {@link java.lang.Process} handle and stopped by PID, never by name: on
 * {@code close()}, on a failed start, and from one JVM shutdown hook ({@code ShutdownCleanup}).
 */
package io.leaderpacer.cluster;
