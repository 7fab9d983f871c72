package io.leaderpacer.cluster.process;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * One JVM shutdown hook that closes every live cluster and removes every CPU limit.
 *
 * <p>Why: a test killed half-way, a Ctrl-C in the load test or an uncaught exception must not leave broker JVMs
 * running or cgroups behind. One hook for everything (rather than one per cluster) keeps the hook list short and
 * lets limits go first ({@link #registerFirst}), so that a capped broker is not slowed down in its controlled
 * shutdown.
 */
public final class ShutdownCleanup {

    /** What is closed first (CPU limits), in registration order. */
    private static final Set<AutoCloseable> FIRST = new LinkedHashSet<>();
    /** Everything else (clusters), in registration order, closed after {@link #FIRST}. */
    private static final Set<AutoCloseable> OPEN = new LinkedHashSet<>();
    /** Whether the hook is installed: lazily, by the first registration. */
    private static boolean installed;

    private ShutdownCleanup() {}

    /** Closes the resource on JVM exit, after everything registered with {@link #registerFirst}. */
    public static synchronized void register(AutoCloseable resource) {
        install();
        OPEN.add(resource);
    }

    /** Closes the resource on JVM exit before the others: for a CPU limit, so that its process shuts down at full speed. */
    public static synchronized void registerFirst(AutoCloseable resource) {
        install();
        FIRST.add(resource);
    }

    /** Forgets a resource that was closed by its owner. */
    public static synchronized void unregister(AutoCloseable resource) {
        FIRST.remove(resource);
        OPEN.remove(resource);
    }

    private static void install() {
        if (!installed) {
            Runtime.getRuntime().addShutdownHook(new Thread(ShutdownCleanup::closeAll, "leader-pacer-cluster-cleanup"));
            installed = true;
        }
    }

    private static void closeAll() {
        List<AutoCloseable> first;
        List<AutoCloseable> others;
        synchronized (ShutdownCleanup.class) {
            first = new ArrayList<>(FIRST);
            others = new ArrayList<>(OPEN);
            FIRST.clear();
            OPEN.clear();
        }
        first.forEach(ShutdownCleanup::closeQuietly);
        others.forEach(ShutdownCleanup::closeQuietly);
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception e) {
            // the JVM is exiting: nothing else can be done, and the next resource must still be closed
        }
    }
}
