package io.leaderpacer.cluster;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * One JVM shutdown hook that closes every live cluster and removes every CPU limit.
 *
 * <p>Why: a test killed half-way, a Ctrl-C in the load test or an uncaught exception must not leave broker JVMs
 * running or cgroups behind. One hook for everything (rather than one per cluster) keeps the hook list short and
 * lets limits go first, so that a capped broker is not slowed down in its controlled shutdown.
 */
final class ShutdownCleanup {

    /** What is still open, in registration order; limits are closed before clusters. */
    private static final Set<AutoCloseable> OPEN = new LinkedHashSet<>();
    /** Whether the hook is installed: lazily, by the first registration. */
    private static boolean installed;

    private ShutdownCleanup() {
    }

    static synchronized void register(AutoCloseable resource) {
        if (!installed) {
            Runtime.getRuntime().addShutdownHook(new Thread(ShutdownCleanup::closeAll, "leader-pacer-cluster-cleanup"));
            installed = true;
        }
        OPEN.add(resource);
    }

    static synchronized void unregister(AutoCloseable resource) {
        OPEN.remove(resource);
    }

    private static void closeAll() {
        List<AutoCloseable> limits = new ArrayList<>();
        List<AutoCloseable> others = new ArrayList<>();
        synchronized (ShutdownCleanup.class) {
            for (AutoCloseable c : OPEN) {
                (c instanceof CpuQuota.Limit ? limits : others).add(c);
            }
            OPEN.clear();
        }
        limits.forEach(ShutdownCleanup::closeQuietly);
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
