package io.leaderpacer.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Comparator;
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

    private Directories() {}

    /** A new directory under the shared-memory tmpfs when there is a writable one, else under java.io.tmpdir. */
    static Path newBase() {
        Path shm = Paths.get("/dev/shm");
        Path parent =
                Files.isDirectory(shm) && Files.isWritable(shm) ? shm : Paths.get(System.getProperty("java.io.tmpdir"));
        try {
            return Files.createTempDirectory(parent, PREFIX);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a cluster directory under " + parent, e);
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
