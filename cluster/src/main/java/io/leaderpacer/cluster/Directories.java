package io.leaderpacer.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.OptionalLong;
import java.util.stream.Stream;

/**
 * Where a cluster keeps its data and logs, and how it is removed.
 *
 * <p>Why tmpfs by default: on an ordinary disk the first writes to new partitions spend most of their CPU zeroing
 * memory-mapped index files, which would also distort how busy a capped broker looks.
 */
final class Directories {

    /** Prefix of every directory this module creates, so that a leftover one is recognisable. */
    static final String PREFIX = "leader-pacer-cluster-";

    /** The file in each directory this module creates that names the process that created it. */
    static final String OWNER_FILE = "owner.pid";

    private Directories() {}

    /**
     * A new directory under the shared-memory tmpfs when there is a writable one, else under java.io.tmpdir, named
     * with its owner's pid; the directories of owners that have exited are removed first ({@link #removeAbandoned}).
     */
    static Path newBase() {
        Path shm = Paths.get("/dev/shm");
        Path parent =
                Files.isDirectory(shm) && Files.isWritable(shm) ? shm : Paths.get(System.getProperty("java.io.tmpdir"));
        removeAbandoned(parent);
        try {
            Path dir = Files.createTempDirectory(parent, PREFIX);
            Files.writeString(
                    dir.resolve(OWNER_FILE),
                    Long.toString(ProcessHandle.current().pid()));
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a cluster directory under " + parent, e);
        }
    }

    /**
     * Removes the cluster directories under {@code parent} whose owner has exited without removing them, and returns
     * them. Why: a JVM killed by SIGKILL or the OOM killer runs no shutdown hook, and its directory stays in shared
     * memory, which is RAM: evidence run 22 was itself killed by the OOM killer with 7 GB of an earlier, killed run
     * still in {@code /dev/shm}. A directory that names no owner (an older release's, or one being created) or a live
     * one is left alone.
     */
    static List<Path> removeAbandoned(Path parent) {
        List<Path> removed = new ArrayList<>();
        try (Stream<Path> dirs = Files.list(parent)) {
            for (Path dir : dirs.filter(d -> d.getFileName().toString().startsWith(PREFIX))
                    .toList()) {
                OptionalLong owner = owner(dir);
                if (owner.isPresent() && ProcessHandle.of(owner.getAsLong()).isEmpty()) {
                    deleteRecursively(dir);
                    removed.add(dir);
                }
            }
        } catch (IOException | UncheckedIOException e) {
            // best effort: a directory left over costs memory, not correctness
        }
        return removed;
    }

    /** The pid a cluster directory names as its owner, when it names one. */
    static OptionalLong owner(Path dir) {
        try {
            return OptionalLong.of(
                    Long.parseLong(Files.readString(dir.resolve(OWNER_FILE)).strip()));
        } catch (IOException | NumberFormatException e) {
            return OptionalLong.empty();
        }
    }

    /** Deletes a directory tree, best effort: a leftover file in a temporary directory harms nothing. */
    static void deleteRecursively(Path root) {
        if (root == null || !Files.exists(root)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(root)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    // best effort, see above
                }
            });
        } catch (IOException | UncheckedIOException e) {
            // best effort, see above
        }
    }
}
