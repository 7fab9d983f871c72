package io.leaderpacer.cluster.process;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** A child started through the orphan guard, with a small main class in place of Kafka's. */
@Tag("cluster")
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class OrphanGuardTest {

    /** Stands in for {@code kafka.Kafka}: runs until killed, and says so on SIGTERM. */
    public static final class Sleeper {
        public static void main(String[] args) throws Exception {
            Runtime.getRuntime().addShutdownHook(new Thread(() -> System.out.println("graceful shutdown " + args[0])));
            System.out.println("sleeping " + args[0]);
            Thread.sleep(120_000);
        }
    }

    @Test
    void childWhoseParentIsGone_haltsAndDeletesItsNodeDirectory(@TempDir Path base) throws Exception {
        Path node = Files.createDirectories(base.resolve("cluster").resolve("broker-0"));
        Path log = node.resolve("server.log");
        ChildProcesses children = new ChildProcesses(
                Path.of(System.getProperty("java.home"), "bin", "java"), ChildProcesses.thisJvmClasspath());
        Process p = children.startGuarded(List.of("-Xmx32m"), Sleeper.class.getName(), List.of("x"), log, node);
        awaitLog(log, "sleeping x");

        p.getOutputStream().close(); // what the kernel does to the pipe when the parent dies

        assertThat(p.waitFor(20, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isEqualTo(1);
        assertThat(node).doesNotExist();
        assertThat(base.resolve("cluster")).doesNotExist(); // the last node also removes the emptied parent
    }

    @Test
    void sigtermThroughTheHandle_leavesTheInputOpen_soTheChildShutsDownGracefully(@TempDir Path base) throws Exception {
        Path node = Files.createDirectories(base.resolve("broker-0"));
        Path log = node.resolve("server.log");
        ChildProcesses children = new ChildProcesses(
                Path.of(System.getProperty("java.home"), "bin", "java"), ChildProcesses.thisJvmClasspath());
        Process p = children.startGuarded(List.of("-Xmx32m"), Sleeper.class.getName(), List.of("y"), log, node);
        awaitLog(log, "sleeping y");

        ChildProcesses.terminate(List.of(p), Duration.ofSeconds(20));

        assertThat(p.isAlive()).isFalse();
        assertThat(Files.readString(log)).contains("graceful shutdown y").doesNotContain("parent process is gone");
        assertThat(node).isDirectory();
    }

    private static void awaitLog(Path log, String text) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!(Files.exists(log) && Files.readString(log).contains(text))) {
            assertThat(System.nanoTime())
                    .as("waiting for '%s' in %s", text, log)
                    .isLessThan(deadline);
            Thread.sleep(50);
        }
    }
}
