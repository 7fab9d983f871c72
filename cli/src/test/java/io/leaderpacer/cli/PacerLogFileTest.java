package io.leaderpacer.cli;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Where {@code pacer} logs, as separate processes see it: no command destroys another's log, short commands
 * write no file, {@code pacer run} logs dated lines to standard out.
 */
@Tag("cluster")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class PacerLogFileTest {

    /** An ISO-8601 date and time at the start of a line, e.g. 2026-03-01T09:44:50.123Z. */
    private static final String ISO_LINE =
            "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}(Z|[+-]\\d{2}:\\d{2}) .*";

    @TempDir
    Path dir;

    @Test
    void shortCommand_writesNoLogFile_andLeavesAnExistingOneIntact() throws Exception {
        Path log = dir.resolve("target").resolve("pacer.log");
        Files.createDirectories(log.getParent());
        Files.writeString(log, "an earlier process's log line\n");

        PacerProcess plan = PacerProcess.finish(dir, 60_000, "plan");

        assertThat(plan.status()).as(plan.output()).isZero();
        assertThat(Files.readString(log)).isEqualTo("an earlier process's log line\n");
        try (var files = Files.list(log.getParent())) {
            assertThat(files).containsExactly(log);
        }
    }

    @Test
    void logFileOption_appendsDatedLinesToTheFile() throws Exception {
        Path log = dir.resolve("agent.log");
        Files.writeString(log, "an earlier line\n");
        Path config = unreachableConfig();

        PacerProcess plan = PacerProcess.finish(
                dir, 60_000, "plan", "--config", config.toString(), "--log-file", log.toString(), "--verbose");

        assertThat(plan.status()).as(plan.output()).isEqualTo(3);
        assertThat(Files.readString(log))
                .startsWith("an earlier line\n")
                .doesNotContain("\0")
                .containsPattern("(?m)^\\d{4}-\\d{2}-\\d{2}T.* WARN ");
    }

    @Test
    void run_logsDatedLinesToStandardOut_andWritesNoFile() throws Exception {
        Path config = unreachableConfig();
        try (PacerProcess run = PacerProcess.start(dir, "run", "--config", config.toString())) {
            assertThat(run.awaitLine(l -> l.contains("attempt 1"), 30_000))
                    .as(run.output())
                    .isTrue();
            run.signal("TERM");
            assertThat(run.awaitExit(30_000)).as(run.output()).isZero();

            assertThat(run.stdout())
                    .as(run.output())
                    .anyMatch(l -> l.contains("attempt 1"))
                    .allMatch(l -> l.matches(ISO_LINE));
            assertThat(dir.resolve("target")).doesNotExist();
        }
    }

    private Path unreachableConfig() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Path config = dir.resolve("pacer.properties");
        Files.writeString(
                config,
                "bootstrap.servers=127.0.0.1:" + port + "\npacer.http.enabled=false\n"
                        + "pacer.request.timeout.ms=1000\n");
        return config;
    }
}
