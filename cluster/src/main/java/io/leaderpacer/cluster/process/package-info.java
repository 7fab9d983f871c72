/**
 * Starting, watching and stopping the child JVMs of a process cluster.
 *
 * <p>Why a package of its own: what makes child processes safe on a shared machine is the same for every node and
 * knows nothing about Kafka's settings: each child is started from an explicit class path with its JVM options and
 * logging configuration ({@link io.leaderpacer.cluster.process.ChildJvm},
 * {@link io.leaderpacer.cluster.process.ChildLogging}), remembered by its {@link java.lang.Process} handle and
 * stopped by PID, never by name ({@link io.leaderpacer.cluster.process.ChildProcesses}); it ends itself when the
 * parent JVM dies without running its shutdown hook ({@link io.leaderpacer.cluster.process.OrphanGuard}), and one
 * shutdown hook closes whatever is still open ({@link io.leaderpacer.cluster.process.ShutdownCleanup}). The end of a
 * child's log goes into error messages ({@link io.leaderpacer.cluster.process.LogTail}).
 *
 * <p>The classes are public for the cluster package next door; they are not meant for other modules.
 */
package io.leaderpacer.cluster.process;
