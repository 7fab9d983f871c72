package io.leaderpacer.embedded;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * Where the embedded cluster keeps its data, and how it is removed.
 *
 * <p>Why tmpfs: on an ordinary disk, the first writes to new partitions spend most of their time zeroing
 * memory-mapped index files; on the shared-memory tmpfs a cluster starts and fills several times faster.
 */
final class DataDirectories {

    private DataDirectories() {}

    /** The shared-memory tmpfs when this machine has a writable one, else the JVM's temporary directory. */
    static Path defaultBase() {
        Path shm = Paths.get("/dev/shm");
        if (Files.isDirectory(shm) && Files.isWritable(shm)) {
            return shm;
        }
        return Paths.get(System.getProperty("java.io.tmpdir"));
    }

    /** Deletes a directory tree, best effort: a leftover file in a temporary directory harms nothing. */
    static void deleteRecursively(Path root) {
        try (Stream<Path> walk = Files.walk(root)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    // best effort, see above
                }
            });
        } catch (IOException e) {
            // best effort, see above
        }
    }
}
