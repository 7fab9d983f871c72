package io.leaderpacer.cluster.process;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Starts the child JVMs of one cluster and remembers every one of them by its {@link Process} handle.
 *
 * <p>Why one place: every process this module starts must be stopped by PID (never by name) on close, on a failed
 * start and on JVM exit. Keeping the handles here, and refusing to start anything once closed, means no path can
 * leave a broker running, even when the shutdown hook runs while a start is half-way.
 */
public final class ChildProcesses {

    /** The children's {@code java} launcher. */
    private final Path java;
    /** The children's class path, passed as {@code -cp}. */
    private final String classpath;
    /** Where {@link OrphanGuard} is loaded from, appended to the servers' class path; null when unknown. */
    private final String guardLocation = guardLocation();
    /** Every process started, alive or not, in start order. */
    private final List<Process> started = new ArrayList<>();
    /** Set by {@link #stopAll}: no process may be started afterwards. */
    private boolean closed;

    public ChildProcesses(Path java, String classpath) {
        this.java = java;
        this.classpath = classpath;
    }

    /** Starts {@code java <options> -cp <classpath> <mainClass> <args>} with stdout and stderr appended to {@code log}. */
    public Process start(List<String> jvmOptions, String mainClass, List<String> args, Path log) {
        return start(jvmOptions, classpath, mainClass, args, log);
    }

    private synchronized Process start(
            List<String> jvmOptions, String cp, String mainClass, List<String> args, Path log) {
        if (closed) {
            throw new IllegalStateException("the cluster is closed");
        }
        List<String> command = new ArrayList<>();
        command.add(java.toString());
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(cp);
        command.add(mainClass);
        command.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(log.getParent().toFile())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        try {
            Process p = builder.start();
            started.add(p);
            return p;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + java + " for " + mainClass, e);
        }
    }

    /**
     * Starts a long-running server through {@link OrphanGuard}, which ends it if this JVM dies without running its
     * shutdown hook; {@code nodeDirectory} is what the orphan deletes.
     */
    public Process startGuarded(
            List<String> jvmOptions, String mainClass, List<String> args, Path log, Path nodeDirectory) {
        if (guardLocation == null) {
            return start(jvmOptions, mainClass, args, log);
        }
        List<String> options = new ArrayList<>(jvmOptions);
        options.add("-D" + OrphanGuard.NODE_DIRECTORY + "=" + nodeDirectory);
        List<String> guardedArgs = new ArrayList<>();
        guardedArgs.add(mainClass);
        guardedArgs.addAll(args);
        return start(
                options, classpath + File.pathSeparator + guardLocation, OrphanGuard.class.getName(), guardedArgs, log);
    }

    /**
     * This JVM's class path, for children that run this JVM's classes: Surefire's test class path when running
     * under it (its own is a manifest-only jar), else {@code java.class.path}.
     */
    public static String thisJvmClasspath() {
        String surefire = System.getProperty("surefire.test.class.path");
        return surefire != null && !surefire.isBlank() ? surefire : System.getProperty("java.class.path");
    }

    /** PIDs of every process ever started here, alive or not. */
    public synchronized List<Long> pids() {
        return started.stream().map(Process::pid).toList();
    }

    /**
     * Stops every live process: SIGTERM to all of {@code first} (the brokers, whose controlled shutdown needs the
     * controller), a bounded wait, SIGKILL to what is left, then the same for everything else.
     */
    public void stopAll(List<Process> first, Duration grace) {
        List<Process> all;
        synchronized (this) {
            closed = true;
            all = new ArrayList<>(started);
        }
        terminate(first.stream().filter(all::contains).toList(), grace);
        terminate(all, grace);
    }

    /**
     * SIGTERM to each, one shared bounded wait, then SIGKILL and a wait for each that is still alive.
     *
     * <p>The signal goes through the {@link ProcessHandle}: {@link Process#destroy()} would also close the child's
     * standard input, which {@link OrphanGuard} reads as "the parent is gone" and halts at once, skipping Kafka's
     * controlled shutdown.
     */
    public static void terminate(List<Process> processes, Duration grace) {
        processes.stream().filter(Process::isAlive).forEach(p -> p.toHandle().destroy());
        long deadline = System.nanoTime() + grace.toNanos();
        for (Process p : processes) {
            awaitExit(p, Math.max(0, deadline - System.nanoTime()));
        }
        for (Process p : processes) {
            if (p.isAlive()) {
                kill(p);
            } else {
                closeInput(p);
            }
        }
    }

    private static String guardLocation() {
        try {
            var source = OrphanGuard.class.getProtectionDomain().getCodeSource();
            return source == null ? null : Path.of(source.getLocation().toURI()).toString();
        } catch (Exception e) {
            return null;
        }
    }

    /**
     * SIGKILL and wait for the exit (which is immediate once the kernel delivers it). Through the handle, so that
     * the child's standard input stays open until it is dead (see {@link #terminate}).
     */
    public static void kill(Process p) {
        p.toHandle().destroyForcibly();
        awaitExit(p, TimeUnit.SECONDS.toNanos(30));
        closeInput(p);
    }

    /** The pipe to a dead child's standard input is of no further use. */
    private static void closeInput(Process p) {
        if (!p.isAlive()) {
            try {
                p.getOutputStream().close();
            } catch (IOException e) {
                // already closed
            }
        }
    }

    private static void awaitExit(Process p, long nanos) {
        try {
            p.waitFor(nanos, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
