package io.leaderpacer.cluster;

import io.leaderpacer.cluster.process.ChildProcesses;
import io.leaderpacer.cluster.process.LogTail;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * One node of a process cluster: its fixed identity (id, role, port, directory) and its current process.
 *
 * <p>Why the identity is fixed: a restarted broker must come back on the same port and data directory, as a real
 * broker restarted by an operator does; only the process changes from one run to the next.
 */
final class KafkaNode {

    /** Main class of a Kafka server in every 3.x and 4.x version. */
    static final String SERVER_MAIN = "kafka.Kafka";

    final int id;
    final NodeRole role;
    /** The node's only listener port (PLAINTEXT for a broker, CONTROLLER for the controller). */
    final int port;
    /** Holds the node's properties, logging configuration, log and data. */
    final Path directory;

    final Path properties;
    final Path log;
    final Path data;
    /** JVM options of every run: heap, GC, logging, temporary directory. */
    private final List<String> jvmOptions;

    /** The current (or last) process; null before the first start. */
    private Process process;
    /** Size of the log when the current run started, so a failure shows this run's lines. */
    private long logOffset;
    /** How many times the node was started: the first run of a broker has no earlier registration to mistake. */
    private int runs;
    /** Whether the current run is known to have registered (set by the cluster's readiness checks). */
    private boolean registrationSeen;

    KafkaNode(int id, NodeRole role, int port, Path directory, List<String> jvmOptions) {
        this.id = id;
        this.role = role;
        this.port = port;
        this.directory = directory;
        this.properties = directory.resolve("server.properties");
        this.log = directory.resolve("server.log");
        this.data = directory.resolve("data");
        this.jvmOptions = List.copyOf(jvmOptions);
    }

    /** "broker 1" or "controller 3000", as messages name it. */
    String label() {
        return role.word + " " + id;
    }

    String address() {
        return "127.0.0.1:" + port;
    }

    /** Starts the server process; the caller has checked it is not running. */
    synchronized void start(ChildProcesses children) {
        logOffset = LogTail.sizeOf(log);
        process = children.startGuarded(jvmOptions, SERVER_MAIN, List.of(properties.toString()), log, directory);
        runs++;
        registrationSeen = false;
    }

    synchronized boolean isRunning() {
        return process != null && process.isAlive();
    }

    synchronized Process process() {
        return process;
    }

    synchronized long pid() {
        requireRunning();
        return process.pid();
    }

    /**
     * Throws unless the current run is alive. Why the log tail: a broker that exited on its own (an out-of-memory
     * exit, a fatal log-recovery error) says why only in its log, which is deleted with the cluster.
     */
    void requireRunning() {
        Process p = process();
        if (p == null) {
            throw new IllegalStateException(label() + " is not running: it was never started");
        }
        if (!p.isAlive()) {
            throw new IllegalStateException(
                    withLogTail(label() + " is not running: it exited with status " + p.exitValue()));
        }
    }

    synchronized boolean firstRun() {
        return runs <= 1;
    }

    synchronized boolean registrationSeen() {
        return registrationSeen;
    }

    synchronized void markRegistrationSeen() {
        registrationSeen = true;
    }

    /**
     * Whether this run's log says that the controller accepted its registration. Kafka's broker logs "Successfully
     * registered broker N" (3.x and 4.x); the cluster also has a check that does not depend on log text.
     */
    boolean logSaysRegistered() {
        return LogTail.contains(log, logOffsetNow(), "Successfully registered broker " + id + " ");
    }

    /** SIGKILL, then wait for the exit. */
    void kill() {
        Process p = process();
        if (p != null && p.isAlive()) {
            ChildProcesses.kill(p);
        }
    }

    /** SIGTERM (Kafka's controlled shutdown), a bounded wait, then SIGKILL. */
    void stop(Duration grace) {
        Process p = process();
        if (p != null && p.isAlive()) {
            ChildProcesses.terminate(List.of(p), grace);
        }
    }

    /**
     * Throws when the current run has exited, naming the node, its exit status, what was going on and the end of
     * this run's log.
     */
    void checkAlive(String during) {
        Process p = process();
        if (p != null && !p.isAlive()) {
            throw failure(label() + " exited with status " + p.exitValue() + " " + during);
        }
    }

    /** An exception naming this node, with the last lines of this run's log. */
    ProcessClusterException failure(String message) {
        return new ProcessClusterException(withLogTail(message));
    }

    private String withLogTail(String message) {
        return message + "; last lines of " + log + ":" + System.lineSeparator() + LogTail.of(log, logOffsetNow(), 20);
    }

    private synchronized long logOffsetNow() {
        return logOffset;
    }
}
