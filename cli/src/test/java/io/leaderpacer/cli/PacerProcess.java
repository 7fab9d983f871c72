package io.leaderpacer.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
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
    private final List<String> out = new CopyOnWriteArrayList<>();
    private final List<String> err = new CopyOnWriteArrayList<>();
    private final Thread outReader;
    private final Thread errReader;

    private PacerProcess(Process process) {
        this.process = process;
        this.outReader = reader(process.getInputStream(), out);
        this.errReader = reader(process.getErrorStream(), err);
    }

    /** Starts {@code pacer ARGS} in {@code dir} with the shipped logging configuration. */
    static PacerProcess start(Path dir, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m",
                "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1",
                "-Dlogback.configurationFile=logback.xml", // the shipped configuration, not the tests' one
                "-cp",
                System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")),
                PacerCli.class.getName()));
        command.addAll(List.of(args));
        return new PacerProcess(
                new ProcessBuilder(command).directory(dir.toFile()).start());
    }

    /** Starts, and waits for the end of, a command expected to finish; -1 as status if it did not in time. */
    static PacerProcess finish(Path dir, long timeoutMs, String... args) throws IOException, InterruptedException {
        PacerProcess p = start(dir, args);
        p.awaitExit(timeoutMs);
        return p;
    }

    private static Thread reader(InputStream stream, List<String> lines) {
        Thread t = new Thread(
                () -> {
                    try (BufferedReader r = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
                        for (String line; (line = r.readLine()) != null; ) {
                            lines.add(line);
                        }
                    } catch (IOException e) {
                        // The process ended.
                    }
                },
                "pacer-output");
        t.setDaemon(true);
        t.start();
        return t;
    }

    /** Waits until a line of standard out or error matches; false after the time-out. */
    boolean awaitLine(Predicate<String> match, long timeoutMs) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (System.nanoTime() < deadline) {
            if (out.stream().anyMatch(match) || err.stream().anyMatch(match)) {
                return true;
            }
            if (!process.isAlive() && !outReader.isAlive() && !errReader.isAlive()) {
                return false;
            }
            Thread.sleep(50);
        }
        return false;
    }

    /** Sends a signal by name (TERM, INT) to the process. */
    void signal(String name) throws IOException, InterruptedException {
        new ProcessBuilder("kill", "-" + name, Long.toString(process.pid()))
                .inheritIO()
                .start()
                .waitFor();
    }

    /** The exit status, waiting at most the time-out; -1 if it is still running then. */
    int awaitExit(long timeoutMs) throws InterruptedException {
        if (!process.waitFor(timeoutMs, TimeUnit.MILLISECONDS)) {
            return -1;
        }
        outReader.join(2000);
        errReader.join(2000);
        return process.exitValue();
    }

    /** The exit status of a finished process. */
    int status() {
        return process.isAlive() ? -1 : process.exitValue();
    }

    List<String> stdout() {
        return List.copyOf(out);
    }

    List<String> stderr() {
        return List.copyOf(err);
    }

    /** Everything printed, for assertion messages. */
    String output() {
        return "stdout:\n" + String.join("\n", out) + "\nstderr:\n" + String.join("\n", err);
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
        }
    }
}
