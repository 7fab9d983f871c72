package io.leaderpacer.cluster.process;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * Entry point of every server child: starts a thread that ends the process when the parent JVM is gone, then runs
 * the real main class ({@code kafka.Kafka}).
 *
 * <p>Why: the parent's shutdown hook does not run when the parent is killed with SIGKILL (a killed Maven run, an
 * IDE's stop button, the out-of-memory killer); without this the brokers would run on as orphans, holding ports,
 * memory and the CPU of a shared machine. The parent holds the write end of the child's standard input, and the
 * kernel closes it when the parent dies, however it dies: the read below then returns end-of-file. The child
 * halts at once (nobody is left to care for a graceful shutdown) and deletes its node directory, and the
 * cluster's directory once it is empty, since nobody is left to do that either.
 *
 * <p>This class uses only the JDK, because it runs on whatever class path the children get (another Kafka
 * version's jars plus this module's location).
 */
public final class OrphanGuard {

    /** System property naming the node directory to delete when orphaned. */
    static final String NODE_DIRECTORY = "leaderpacer.cluster.node.dir";

    private OrphanGuard() {}

    /** {@code args[0]} is the main class to run, the rest its arguments. */
    public static void main(String[] args) throws Throwable {
        if (args.length == 0) {
            throw new IllegalArgumentException("usage: OrphanGuard <main class> [arguments...]");
        }
        Thread watch = new Thread(OrphanGuard::haltWhenParentGone, "leader-pacer-orphan-guard");
        watch.setDaemon(true);
        watch.start();
        try {
            Class.forName(args[0]).getMethod("main", String[].class).invoke(null, (Object)
                    Arrays.copyOfRange(args, 1, args.length));
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    private static void haltWhenParentGone() {
        try {
            byte[] buffer = new byte[256];
            while (System.in.read(buffer) != -1) {
                // the parent never writes; anything read is ignored
            }
        } catch (IOException e) {
            // a broken pipe means the same as end-of-file
        }
        System.out.println("leader-pacer: the parent process is gone; halting this orphaned node");
        System.out.flush();
        String dir = System.getProperty(NODE_DIRECTORY);
        if (dir != null) {
            deleteTree(Path.of(dir));
            try {
                Files.deleteIfExists(Path.of(dir).getParent()); // only succeeds once every node has gone
            } catch (IOException e) {
                // another node's directory is still there: that node deletes it
            }
        }
        Runtime.getRuntime().halt(1);
    }

    private static void deleteTree(Path root) {
        try (Stream<Path> walk = Files.walk(root)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | RuntimeException e) {
            // best effort: the process halts anyway
        }
    }
}
