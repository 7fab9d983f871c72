package io.leaderpacer.cluster;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** Hand-worked: which leftover cluster directories a new cluster removes before it makes its own. */
class DirectoriesTest {

    private static Path dir(Path parent, String name, String owner) throws IOException {
        Path d = Files.createDirectories(parent.resolve(name).resolve("broker-1"));
        Files.writeString(d.resolve("segment"), "data");
        if (owner != null) {
            Files.writeString(parent.resolve(name).resolve(Directories.OWNER_FILE), owner);
        }
        return parent.resolve(name);
    }

    @Test
    void aDirectoryWhoseOwnerExited_isRemoved_liveOnesUnnamedOnesAndOthersAreKept(@TempDir Path parent)
            throws Exception {
        Process exited = new ProcessBuilder("true").start();
        exited.waitFor();
        String gone = Long.toString(exited.pid());
        Path abandoned = dir(parent, Directories.PREFIX + "1", gone);
        Path live = dir(
                parent,
                Directories.PREFIX + "2",
                Long.toString(ProcessHandle.current().pid()));
        Path unnamed = dir(parent, Directories.PREFIX + "3", null);
        Path garbled = dir(parent, Directories.PREFIX + "4", "not a pid");
        Path someoneElses = dir(parent, "another-tool-5", gone);

        assertThat(Directories.removeAbandoned(parent)).containsExactly(abandoned);

        assertThat(abandoned).doesNotExist();
        assertThat(live).isDirectory();
        assertThat(unnamed).isDirectory();
        assertThat(garbled).isDirectory();
        assertThat(someoneElses).isDirectory();
    }

    @Test
    void aNewBase_namesItsOwner() {
        Path base = Directories.newBase();
        try {
            assertThat(Directories.owner(base)).hasValue(ProcessHandle.current().pid());
        } finally {
            Directories.deleteRecursively(base);
        }
    }
}
