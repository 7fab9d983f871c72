package io.leaderpacer.dist;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The tarball {@code mvn package} built, unpacked as an operator unpacks it, and its scripts run as processes: the
 * installed product, not the classes of the build.
 */
final class UnpackedTarball {

    private UnpackedTarball() {}

    /** Exit status and output (standard output and error, merged) of one command. */
    record Run(int status, String output) {}

    /** Unpacks the build's tarball under {@code into}; returns its top directory, the installation's home. */
    static Path unpack(Path into) throws IOException, InterruptedException {
        Path tarball = Path.of(System.getProperty("pacer.tarball"));
        assertThat(tarball).exists();
        Files.createDirectories(into);
        Process tar = new ProcessBuilder("tar", "-xzf", tarball.toString(), "-C", into.toString())
                .inheritIO()
                .start();
        assertThat(tar.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(tar.exitValue()).isZero();
        return into.resolve(System.getProperty("pacer.dist.name"));
    }

    /** Starts {@code bin/pacer ARGS} in the background, its output to {@code log}; the caller stops it by its handle. */
    static Process start(Path home, Path log, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(home.resolve("bin/pacer").toString()));
        command.addAll(List.of(args));
        return builder(home, command).redirectOutput(log.toFile()).start();
    }

    /**
     * Runs a command of the installation ({@code bin/...} and its arguments) to its end, at most {@code timeoutMs},
     * its output also kept in {@code log}; a command still running then is killed and the test fails.
     */
    static Run run(Path home, Path log, long timeoutMs, String... command) throws IOException, InterruptedException {
        Process p = builder(home, List.of(command)).redirectOutput(log.toFile()).start();
        try {
            assertThat(p.waitFor(timeoutMs, TimeUnit.MILLISECONDS))
                    .as("%s ended within %d ms", command[0], timeoutMs)
                    .isTrue();
        } finally {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
        return new Run(p.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
    }

    private static ProcessBuilder builder(Path home, List<String> command) throws IOException {
        Path work = Files.createTempDirectory(home.getParent(), "work");
        ProcessBuilder pb = new ProcessBuilder(command).directory(work.toFile()).redirectErrorStream(true);
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        return pb;
    }
}
