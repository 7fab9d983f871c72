package io.leaderpacer.cluster.process;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import static org.assertj.core.api.Assertions.assertThat;

class LogTailTest {

    @Test
    void of_keepsTheLatestRunsLastLinesWithoutStackFrames(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("server.log");
        Files.writeString(log, "old run\n");
        long offset = LogTail.sizeOf(log);
        Files.writeString(
                log,
                "ERROR Exiting Kafka\njava.lang.ClassNotFoundException: x.NoSuch\n\tat a.B.c(B.java:1)\n"
                        + "Caused by: y\n\t... 7 more\nlast\n",
                StandardOpenOption.APPEND);

        String tail = LogTail.of(log, offset, 20);

        assertThat(tail)
                .contains("ERROR Exiting Kafka", "NoSuch", "Caused by: y", "last")
                .doesNotContain("old run", "B.java", "7 more");
        assertThat(LogTail.of(log, offset, 1).trim()).isEqualTo("last");
        assertThat(LogTail.contains(log, offset, "Caused by")).isTrue();
        assertThat(LogTail.contains(log, offset, "old run")).isFalse();
        assertThat(LogTail.of(dir.resolve("missing"), 0, 20)).contains("no log");
    }
}
