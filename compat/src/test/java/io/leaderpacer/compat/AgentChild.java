package io.leaderpacer.compat;

import io.leaderpacer.agent.coordination.RunCommandMain;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * Test support: {@code pacer run --config FILE} as a child JVM, so that the story can kill it with SIGKILL (a crash:
 * no shutdown hook, no leaving the group) between a reorder and its restore.
 *
 * <p>The process is kept by its handle and stopped by its PID only.
 */
final class AgentChild implements AutoCloseable {

    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private final Process process;
    private final int port;
    private final Path log;

    private AgentChild(Process process, int port, Path log) {
        this.process = process;
        this.port = port;
        this.log = log;
    }

    /** Starts the agent with these properties plus a free HTTP port; its output goes to {@code dir/agent.log}. */
    static AgentChild start(Path dir, Map<String, String> settings) throws IOException {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Properties p = new Properties();
        p.putAll(settings);
        p.put("pacer.http.port", Integer.toString(port));
        Path file = dir.resolve("agent-child.properties");
        try (var out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            p.store(out, null);
        }
        Path log = dir.resolve("agent-child.log");
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process process = new ProcessBuilder(
                        java,
                        "-Xmx256m",
                        "-XX:+UseSerialGC",
                        "-XX:TieredStopAtLevel=1",
                        "-cp",
                        classpath,
                        RunCommandMain.class.getName(),
                        "--config",
                        file.toString())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        return new AgentChild(process, port, log);
    }

    /** GET of a path of the agent's endpoint; empty when it does not answer (yet). */
    Optional<String> get(String path) {
        try {
            HttpResponse<String> r = HTTP.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                            .timeout(Duration.ofSeconds(3))
                            .GET()
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            return r.statusCode() == 200 ? Optional.of(r.body()) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    boolean isAlive() {
        return process.isAlive();
    }

    String log() throws IOException {
        return Files.readString(log, StandardCharsets.UTF_8);
    }

    /** SIGKILL to this process's PID, then wait for it to be gone. */
    void kill() throws InterruptedException {
        process.toHandle().destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    /** Kills the process if it still runs; an interrupt while waiting for it is kept for the caller. */
    @Override
    public void close() {
        if (process.isAlive()) {
            try {
                kill();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
