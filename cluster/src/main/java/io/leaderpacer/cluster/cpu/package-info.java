/**
 * A CPU quota for one process by PID, and how much CPU a process really used.
 *
 * <p>Why a package of its own: capping a process (a cgroup v2 or v1 group of its own, or {@code taskset} as a
 * fallback) and reading its CPU time from {@code /proc} are Linux process matters that know nothing about Kafka;
 * the process cluster uses them to slow one broker down while the others run at full speed, and the load test to
 * say how busy that broker was. {@link io.leaderpacer.cluster.cpu.CpuQuota#detect()} picks the mechanism and says
 * why; every limit it applies is removed on {@code close()} or, at the latest, by the JVM's shutdown hook
 * ({@link io.leaderpacer.cluster.process.ShutdownCleanup}).
 */
package io.leaderpacer.cluster.cpu;
