package io.leaderpacer.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/** Test support: {@code pacer} as a child JVM on this test's class path, its output collected line by line. */
final class PacerProcess implements AutoCloseable {

    private final Process process;
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final Thread reader;

    private PacerProcess(Process process) {
        this.process = process;
        this.reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    lines.add(line);
                }
            } catch (IOException e) {
                // The process ended.
            }
        }, "pacer-output");
        reader.setDaemon(true);
        reader.start();
    }

    /** Starts {@code pacer ARGS} in {@code dir}, standard error merged into standard out. */
    static PacerProcess start(Path dir, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-Dlogback.configurationFile=logback.xml", // the shipped configuration, not the tests' one
                "-cp", System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")),
                PacerCli.class.getName()));
        command.addAll(List.of(args));
        return new PacerProcess(new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start());
    }

    /** Waits until a line matches; false after the time-out. */
    boolean awaitLine(Predicate<String> match, long timeoutMs) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (System.nanoTime() < deadline) {
            if (lines.stream().anyMatch(match)) {
                return true;
            }
            if (!process.isAlive() && !reader.isAlive()) {
                return lines.stream().anyMatch(match);
            }
            Thread.sleep(50);
        }
        return false;
    }

    /** Sends a signal by name (TERM, INT) to the process. */
    void signal(String name) throws IOException, InterruptedException {
        new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).inheritIO().start().waitFor();
    }

    /** The exit status, waiting at most the time-out; -1 if it is still running then. */
    int awaitExit(long timeoutMs) throws InterruptedException {
        if (!process.waitFor(timeoutMs, TimeUnit.MILLISECONDS)) {
            return -1;
        }
        reader.join(2000);
        return process.exitValue();
    }

    String output() {
        return String.join("\n", lines);
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
        }
    }
}
