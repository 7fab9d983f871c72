/**
 * A real KRaft Kafka cluster whose controller and brokers are separate child JVMs.
 *
 * <p>Why separate processes: the in-JVM cluster of the {@code embedded} module shares one heap, one set of cores
 * and one process between all brokers, so a broker can neither crash for real ({@code kill -9}) nor be slowed
 * down alone. Here every node is an ordinary {@code kafka.Kafka} process started from a class path (by default the
 * current JVM's), so it can be killed with SIGKILL, stopped with SIGTERM (Kafka's controlled shutdown), restarted
 * on the same ports and data, and put under a CPU cap ({@link io.leaderpacer.cluster.cpu.CpuQuota}) while the
 * others run at full speed; {@link io.leaderpacer.cluster.cpu.ProcessCpuTime} then says how busy it really was.
 *
 * <p>This package holds what is about Kafka (the cluster, its nodes, their {@code server.properties}, storage
 * format, readiness); starting, watching and stopping the child JVMs is in {@link io.leaderpacer.cluster.process},
 * CPU limits in {@link io.leaderpacer.cluster.cpu}. Every child is recorded by its {@link java.lang.Process} handle
 * and stopped by PID, never by name: on {@code close()}, on a failed start, and from one JVM shutdown hook
 * ({@link io.leaderpacer.cluster.process.ShutdownCleanup}).
 */
package io.leaderpacer.cluster;
